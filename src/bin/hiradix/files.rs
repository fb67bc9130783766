//! Reading and writing the files named on the command line, whatever they turn out to be.
//!
//! A byte cap read from `metadata().len()` is 0 for a device or a pipe, and opening a FIFO
//! for reading waits for a writer: so inputs must be regular files (checked before they are
//! opened) and are read through a reader that stops one byte past the cap. Outputs are
//! checked before a run without consuming anything: a regular file is opened (created if
//! need be), a FIFO or pipe is left for the final write to open (as a shell redirection
//! would, so its reader gets the data), `/dev/null` and terminals are fine, and any other
//! device (`/dev/full`, a disk) is refused up front.

use crate::{bad_input, failure, Failure};
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::Path;

/// The text of the regular file `path`, at most `cap` bytes; a device, FIFO, socket or
/// directory is refused before it is opened, a larger file after `cap + 1` bytes.
pub fn read_capped(path: &Path, cap: u64) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(format!("{}, not a regular file", kind(&meta.file_type())));
    }
    let mut bytes = Vec::new();
    File::open(path).and_then(|f| f.take(cap + 1).read_to_end(&mut bytes)).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(format!("more than {cap} bytes"));
    }
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8 text ({e})"))
}

/// What a file that is not a regular file is, for messages.
fn kind(t: &std::fs::FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Fails with exit status 2 unless `path` can take an output, checked before a run so that
/// a bad path does not cost the run: see the module's rules. Creates a regular file that
/// does not exist yet; consumes nothing.
pub fn check_writable(path: &Path) -> Result<(), Failure> {
    let refuse = |why: String| bad_input(format!("cannot write {}: {why}", path.display()));
    match std::fs::metadata(path) {
        Ok(meta) if meta.file_type().is_fifo() => Ok(()),
        Ok(meta) if meta.file_type().is_char_device() => {
            let null = std::fs::metadata("/dev/null").is_ok_and(|n| n.rdev() == meta.rdev());
            let terminal = OpenOptions::new().write(true).open(path).is_ok_and(|f| f.is_terminal());
            if null || terminal {
                Ok(())
            } else {
                Err(refuse("a device other than /dev/null or a terminal".into()))
            }
        }
        Ok(meta) if !meta.is_file() => Err(refuse(kind(&meta.file_type()).into())),
        _ => OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map(drop)
            .map_err(|e| refuse(e.to_string())),
    }
}

/// Writes `text` to `path` (truncating a regular file), exit status 1 if that fails.
pub fn write(path: &Path, text: &str) -> Result<(), Failure> {
    let is_file = std::fs::metadata(path).map_or(true, |m| m.is_file());
    let mut options = OpenOptions::new();
    options.write(true).create(is_file).truncate(is_file);
    options
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.flush()))
        .map_err(|e| failure(format!("cannot write {}: {e}", path.display())))
}
