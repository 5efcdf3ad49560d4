// Loaded with `node --require` (NODE_OPTIONS) into a docsctl process: when it exits, appends the
// size of V8's young generation (new space, both semi-spaces, bytes) to $YOUNG_FILE. V8 grows it
// and does not shrink it while work goes on: its size at exit is the largest it reached.
const { appendFileSync } = require('node:fs');
const v8 = require('node:v8');

process.on('exit', () => {
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  appendFileSync(process.env.YOUNG_FILE, `${young ? young.space_size : -1}\n`);
});
