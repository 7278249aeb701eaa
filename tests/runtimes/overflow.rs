// Stack overflow in main or in a spawned thread.  Rust's runtime catches the
// guard page fault on an alternate stack, prints "thread '...' has overflowed
// its stack" and aborts.
#![allow(unconditional_recursion)]
use std::ptr;
use std::thread;

// Each frame passes its buffer down and reads it after the call: no tail
// call, no loop, the stack really grows.
#[inline(never)]
fn recurse(depth: u64, prev: &[u8; 256]) -> u64 {
    let mut buf = [0u8; 256];
    buf[0] = prev[0].wrapping_add(1);
    unsafe { ptr::write_volatile(&mut buf[1], depth as u8) };
    let r = recurse(depth + 1, &buf);
    r + unsafe { ptr::read_volatile(&buf[(depth % 256) as usize]) } as u64
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    println!("overflow in {}", mode);
    if mode == "thread" {
        let t = thread::Builder::new()
            .name("worker".into())
            .spawn(|| recurse(0, &[0u8; 256]))
            .unwrap();
        println!("joined: {}", t.join().is_ok());
    } else {
        println!("{}", recurse(0, &[0u8; 256]));
    }
}
