// Makes the demo provider's video, src/gateway/demo/demo-video.ts: two seconds of a drifting colour gradient
// with a white square crossing it, 320×180 at 12 frames a second, WebM (VP8), no sound. Needs ffmpeg with
// libvpx on PATH (Debian: apt-get install ffmpeg). Run it only to change the video: the module is committed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const work = mkdtempSync(join(tmpdir(), 'verdict-demo-video-'));
const file = join(work, 'demo.webm');
const args = [
  '-v',
  'error',
  '-y',
  '-f',
  'lavfi',
  '-i',
  'gradients=size=320x180:rate=12:duration=2:speed=0.08:seed=7',
  '-f',
  'lavfi',
  '-i',
  'color=c=white:s=36x36:r=12:d=2',
  '-filter_complex',
  "[0][1]overlay=x='24+t*120':y=72:shortest=1,format=yuv420p",
  '-c:v',
  'libvpx',
  '-b:v',
  '80k',
  '-an',
  '-fflags',
  '+bitexact',
  '-flags:v',
  '+bitexact',
  file,
];
execFileSync('ffmpeg', args, { stdio: 'inherit' });
const base64 = readFileSync(file).toString('base64');
rmSync(work, { recursive: true, force: true });
const lines = base64.match(/.{1,100}/g) ?? [];
writeFileSync(
  new URL('../src/gateway/demo/demo-video.ts', import.meta.url),
  `// Made by scripts/make-demo-video.mjs (ffmpeg: a drifting gradient with a white square, 320×180, 2 s, VP8).\n\n` +
    `/** The demo provider's video: a WebM file of ${Math.round((base64.length * 3) / 4 / 1024)} KB, base64-encoded. */\n` +
    `export const DEMO_VIDEO_WEBM = {\n  mediaType: 'video/webm',\n  width: 320,\n  height: 180,\n  durationSeconds: 2,\n  data: [\n${lines.map((line) => `    '${line}',`).join('\n')}\n  ].join(''),\n} as const;\n`,
);
