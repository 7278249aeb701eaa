'use strict';
// Load the addon given as argument and call its crashing function.
const addon = require(process.argv[2]);
console.log('calling');
addon.crash();
console.log('survived');
