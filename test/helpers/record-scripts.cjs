// Preloaded by tests (`node --require`): appends the file of each vm.Script a process compiles
// (each chunk bin/bundle-loader.js loads) and whether V8 refused its code cache ("undefined":
// none was given) to the file named by DOCSCTL_LOADED_LOG, a line each: FILE<tab>REFUSED.
'use strict';
const vm = require('node:vm');
const { appendFileSync } = require('node:fs');

vm.Script = class extends vm.Script {
  constructor(code, options) {
    super(code, options);
    appendFileSync(process.env.DOCSCTL_LOADED_LOG, `${options.filename}\t${this.cachedDataRejected}\n`);
  }
};
