//! kubectl's global options: every reader of a kubectl line (the kubernetes pack, the
//! commands `kubectl exec` sends into a pod) must skip the same values to find its verb.

/// kubectl's global options that take a separate value.
pub const GLOBAL_VALUED: &[&str] = &[
    "n",
    "namespace",
    "context",
    "cluster",
    "user",
    "kubeconfig",
    "s",
    "server",
    "token",
    "as",
    "as-group",
    "as-uid",
    "request-timeout",
    "cache-dir",
    "certificate-authority",
    "client-certificate",
    "client-key",
    "tls-server-name",
    "username",
    "password",
    "v",
    "vmodule",
    "log-file",
    "profile",
    "profile-output",
];
