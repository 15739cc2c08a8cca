// Deterministic result documents for the benchmarks: realistic successes and failures, about one in five
// breaking a rule of the contract.

/** A seeded pseudo-random generator (mulberry32), so every run measures the same documents. */
export function createRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'file',
  'path',
  'match',
  'build',
  'deploy',
  'cache',
  'query',
  'user',
  'token',
  'report',
  'step',
];
const COMMANDS = ['findFiles', 'build', 'deploy', 'lint', 'test', 'query'];
const CODES = ['path_not_found', 'permission_denied', 'timeout', 'invalid_arguments', 'conflict'];

// Ways a document can break the contract, as they happen in real producers.
const BREAKS = [
  (d) => {
    delete d.message;
  },
  (d) => {
    d.message = '  ';
  },
  (d) => {
    d.success = 'true';
  },
  (d) => {
    d.details = null;
  },
  (d) => {
    if (d.success) d.error_code = 'oops';
    else {
      delete d.error;
      delete d.error_code;
    }
  },
  (d) => {
    d.warnings = ['ok', ''];
  },
  (d) => {
    d.meta = { ...d.meta, duration_ms: -1 };
  },
  (d) => {
    d.meta = { ...d.meta, schema_version: '1' };
  },
  (d) => {
    d.error_code = 'Not-Snake';
  },
];

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

function words(random, count) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(pick(random, WORDS));
  return out.join(' ');
}

/** One result document; `size` scales its details (1 gives 100–300 bytes as JSON). */
export function createDocument(random, size = 1) {
  const success = random() < 0.7;
  const doc = { success, message: `${words(random, 3 + Math.floor(random() * 4))}.` };
  if (!success) {
    if (random() < 0.8) doc.error = `${words(random, 4)}.`;
    if (random() < 0.8 || doc.error === undefined) doc.error_code = pick(random, CODES);
  }
  const details = {};
  const fields = Math.floor(random() * 3 * size);
  for (let i = 0; i < fields; i++)
    details[pick(random, WORDS) + i] = random() < 0.5 ? words(random, 2) : Math.round(random() * 1e4);
  if (fields > 0) doc.details = details;
  if (random() < 0.2) doc.warnings = [`${words(random, 3)}.`];
  if (random() < 0.8) {
    doc.meta = {
      command: pick(random, COMMANDS),
      duration_ms: Math.round(random() * 1e5) / 100,
      schema_version: 1,
    };
  }
  if (random() < 0.2) pick(random, BREAKS)(doc);
  return doc;
}

/** `count` JSONL lines of 100 to 300 bytes each. */
export function createJsonlLines(count, seed = 7) {
  const random = createRandom(seed);
  const lines = [];
  while (lines.length < count) {
    const line = JSON.stringify(createDocument(random));
    if (line.length >= 100 && line.length <= 300) lines.push(line);
  }
  return lines;
}
