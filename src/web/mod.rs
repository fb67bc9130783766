//! Web (in progress).
