//! The page's charts, drawn by plotters into SVG markup.
//!
//! plotters is built without its font features: the SVG backend writes each label as a
//! `<text>` element in a generic family that the browser renders, so no font file is read
//! or shipped, and label widths are plotters' own estimate.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use super::DECISIONS;

const WIDTH: u32 = 760;
const FONT: &str = "sans-serif";
const BAR: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);

/// One colour per decision, in [`DECISIONS`] order.
const DECISION_COLORS: [RGBColor; DECISIONS.len()] = [
    RGBColor(0xc0, 0x39, 0x2b), // deny
    RGBColor(0xe6, 0x7e, 0x22), // ask
    RGBColor(0x8e, 0x44, 0xad), // override
    RGBColor(0x27, 0x80, 0xb0), // observe
    RGBColor(0x16, 0xa0, 0x85), // undo
    RGBColor(0x7f, 0x8c, 0x8d), // error
    RGBColor(0xbd, 0xc3, 0xc7), // allow
];

/// Most characters of a bar's label; longer ones keep their end (a path's last folders).
const LABEL_CHARS: usize = 44;

fn failed(e: impl std::fmt::Display) -> String {
    format!("cannot draw the chart: {e}")
}

/// How many segments an axis of `len` values has: an integer range holds both its ends, so
/// `0..n - 1` is n segments, and one of a single value has no width to draw; a lone row or
/// day gets an empty neighbour.
fn slots(len: usize) -> Result<u32, String> {
    u32::try_from(len.max(2)).map_err(failed)
}

fn label(text: &str) -> String {
    let n = text.chars().count();
    if n <= LABEL_CHARS {
        return text.to_string();
    }
    let tail: String = text.chars().skip(n - (LABEL_CHARS - 1)).collect();
    format!("…{tail}")
}

/// Horizontal bars, one a row, the first row at the top.
pub fn bars(title: &str, rows: &[(String, usize)]) -> Result<String, String> {
    let labels: Vec<String> = rows.iter().map(|(k, _)| label(k)).collect();
    let n = slots(rows.len())?;
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1);
    let max = u32::try_from(max).map_err(failed)?;
    let widest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let label_width = u32::try_from(widest * 8 + 16).map_err(failed)?;
    let height = 90 + 30 * n;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 22))
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(label_width)
            .build_cartesian_2d(0..max + max.div_ceil(10), (0..n - 1).into_segmented())
            .map_err(failed)?;
        let name = |v: &SegmentValue<u32>| match v {
            SegmentValue::CenterOf(i) => n
                .checked_sub(i + 1)
                .and_then(|row| labels.get(row as usize))
                .cloned()
                .unwrap_or_default(),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(rows.len())
            .y_label_formatter(&name)
            .x_labels(6)
            .x_label_formatter(&|v| v.to_string())
            .max_light_lines(1)
            .label_style((FONT, 16))
            .draw()
            .map_err(failed)?;
        chart
            .draw_series(rows.iter().zip(0u32..).map(|((_, count), i)| {
                let row = n - 1 - i;
                let count = u32::try_from(*count).unwrap_or(u32::MAX);
                let mut bar = Rectangle::new(
                    [
                        (0, SegmentValue::Exact(row)),
                        (count, SegmentValue::Exact(row + 1)),
                    ],
                    BAR.filled(),
                );
                bar.set_margin(3, 3, 0, 0);
                bar
            }))
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

/// Stacked columns, one a day, one colour a decision, with a legend of the decisions shown.
pub fn by_day(days: &[(String, [usize; DECISIONS.len()])]) -> Result<String, String> {
    let n = slots(days.len())?;
    let max = days
        .iter()
        .map(|(_, c)| c.iter().sum::<usize>())
        .max()
        .unwrap_or(0)
        .max(1);
    let max = u32::try_from(max).map_err(failed)?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 320)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("By day", (FONT, 22))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(44)
            .build_cartesian_2d((0..n - 1).into_segmented(), 0..max + max.div_ceil(5))
            .map_err(failed)?;
        let day = |v: &SegmentValue<u32>| match v {
            // `2026-01-02` as `01-02`: the year is in the page's first line.
            SegmentValue::CenterOf(i) => days
                .get(*i as usize)
                .and_then(|(d, _)| d.get(5..))
                .unwrap_or_default()
                .to_string(),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(days.len().min(16))
            .x_label_formatter(&day)
            .y_labels(6)
            .y_label_formatter(&|v| v.to_string())
            .max_light_lines(1)
            .label_style((FONT, 16))
            .draw()
            .map_err(failed)?;
        for (at, (decision, color)) in DECISIONS.iter().zip(DECISION_COLORS).enumerate() {
            if !days.iter().any(|(_, c)| c.get(at).is_some_and(|n| *n > 0)) {
                continue;
            }
            let columns = days.iter().zip(0u32..).map(move |((_, counts), i)| {
                let below: usize = counts.iter().take(at).sum();
                let this = counts.get(at).copied().unwrap_or(0);
                let y = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
                let mut column = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), y(below)),
                        (SegmentValue::Exact(i + 1), y(below + this)),
                    ],
                    color.filled(),
                );
                column.set_margin(0, 0, 4, 4);
                column
            });
            chart
                .draw_series(columns)
                .map_err(failed)?
                .label(*decision)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .label_font((FONT, 16))
            .draw()
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_svg_with_their_labels_as_text() {
        let svg = bars(
            "By rule",
            &[("git.reset-hard".into(), 3), ("a<b".into(), 1)],
        )
        .unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains(">git.reset-hard<") || svg.contains("git.reset-hard\n"));
        assert!(svg.contains("a&lt;b"));
        assert!(svg.matches("<rect").count() >= 3);
    }

    #[test]
    fn days_stack_their_decisions_with_a_legend() {
        let mut one = [0; DECISIONS.len()];
        one[0] = 2;
        one[1] = 1;
        let svg = by_day(&[("2026-01-02".into(), one)]).unwrap();
        assert!(svg.contains("01-02"));
        assert!(svg.contains("deny") && svg.contains("ask"));
        assert!(!svg.contains("override"));
    }

    #[test]
    fn long_labels_keep_their_end() {
        let long = format!("/home/{}/project", "x".repeat(60));
        let short = label(&long);
        assert_eq!(short.chars().count(), LABEL_CHARS);
        assert!(short.ends_with("/project"));
    }
}
