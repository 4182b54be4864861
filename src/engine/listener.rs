//! The command listener both protocols use: stdin is read on a thread of its own, so that the protocol loop
//! can wait on commands and on the engine's reports at once (`isready`, `stop` and `quit` never wait for a
//! search). It knows no protocol: it passes lines on as they come.

use crossbeam_channel::{unbounded, Receiver};
use std::io::BufRead;

/// Reads `input` line by line on a thread of its own and sends each line down the returned channel, which
/// disconnects at the end of the input. Invalid UTF-8 is replaced rather than ending the session.
pub fn spawn_listener<R: BufRead + Send + 'static>(mut input: R) -> Receiver<String> {
    let (tx, rx) = unbounded();
    let spawned = std::thread::Builder::new()
        .name("input".to_string())
        .spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    // Without a listener the receiver reports a disconnect at once and the loop ends like on EOF.
    drop(spawned);
    rx
}
