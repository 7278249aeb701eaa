'use strict';
// WebAssembly out-of-bounds loads: V8 reserves guard regions around a wasm
// memory and compiles loads without bounds checks, so each of these faults
// (SIGSEGV) and V8's trap handler turns it into a RuntimeError.
// (module (memory 1)
//   (func (export "load") (param i32) (result i32) (i32.load (local.get 0))))
const bytes = new Uint8Array([
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,			// magic, version 1
	0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f,			// type: (i32) -> i32
	0x03, 0x02, 0x01, 0x00,						// function 0 has type 0
	0x05, 0x03, 0x01, 0x00, 0x01,					// memory: 1 page
	0x07, 0x08, 0x01, 0x04, 0x6c, 0x6f, 0x61, 0x64, 0x00, 0x00,	// export "load"
	0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x28, 0x02, 0x00, 0x0b, // local.get 0; i32.load
]);
const load = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.load;
let traps = 0, sum = 0;
for (let i = 0; i < 10000; i++) {
	try {
		sum += load(i % 100);			// in bounds
		sum += load(0x7ff00000 + i);		// ~2 GiB past a 64 KiB memory
	} catch (e) {
		if (!(e instanceof WebAssembly.RuntimeError))
			throw e;
		traps++;
	}
}
console.log('traps ' + traps + ' sum ' + sum);
