import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

/** The record types the test responder answers, by their DNS type number. */
const RECORD_TYPES = { A: 1, NS: 2, CNAME: 5, MX: 15, TXT: 16, AAAA: 28 } as const;

/** One record the responder serves: A/AAAA take an address, MX a priority and exchange, TXT chunks. */
export type ZoneRecord =
  | { type: 'A' | 'AAAA'; address: string; ttl?: number }
  | { type: 'CNAME' | 'NS'; target: string; ttl?: number }
  | { type: 'MX'; priority: number; exchange: string; ttl?: number }
  | { type: 'TXT'; chunks: string[]; ttl?: number };

/** What the responder does for a name: serve records, answer an error rcode, or stay silent. */
export type ZoneEntry = ZoneRecord[] | { rcode: 'SERVFAIL' | 'REFUSED' } | { silent: true };

/** A running UDP DNS responder on 127.0.0.1 and the count of queries it has seen. */
export interface DnsResponder {
  /** `127.0.0.1:<port>`, ready for `--server`. */
  server: string;
  /** Queries received so far. */
  queries: number;
  /** Stops the responder. */
  close(): Promise<void>;
}

const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  const parts = labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function encodeAddress(record: { type: 'A' | 'AAAA'; address: string }): Buffer {
  if (record.type === 'A') return Buffer.from(record.address.split('.').map(Number));
  const [head = '', tail = ''] = record.address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const bytes = Buffer.alloc(16);
  for (const [i, group] of groups.entries()) bytes.writeUInt16BE(Number.parseInt(group, 16), i * 2);
  return bytes;
}

function encodeData(record: ZoneRecord): Buffer {
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return encodeAddress(record);
    case 'CNAME':
    case 'NS':
      return encodeName(record.target);
    case 'MX': {
      const priority = Buffer.alloc(2);
      priority.writeUInt16BE(record.priority);
      return Buffer.concat([priority, encodeName(record.exchange)]);
    }
    case 'TXT':
      return Buffer.concat(
        record.chunks.map((chunk) => Buffer.concat([Buffer.from([chunk.length]), Buffer.from(chunk)])),
      );
  }
}

function encodeAnswer(record: ZoneRecord): Buffer {
  const data = encodeData(record);
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0); // a pointer to the question's name at offset 12
  fixed.writeUInt16BE(RECORD_TYPES[record.type], 2);
  fixed.writeUInt16BE(1, 4); // class IN
  fixed.writeUInt32BE(record.ttl ?? 300, 6);
  fixed.writeUInt16BE(data.length, 10);
  return Buffer.concat([fixed, data]);
}

function readQuestion(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  for (let length = query[offset] ?? 0; length > 0; length = query[offset] ?? 0) {
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('latin1'));
    offset += 1 + length;
  }
  const type = query.readUInt16BE(offset + 1);
  return { name: labels.join('.').toLowerCase(), type, end: offset + 5 };
}

function answer(query: Buffer, zone: Record<string, ZoneEntry>): Buffer | undefined {
  const question = readQuestion(query);
  const entry = zone[question.name];
  if (entry !== undefined && 'silent' in entry) return undefined;
  let rcode: number = RCODES.NOERROR;
  let answers: ZoneRecord[] = [];
  if (entry === undefined) rcode = RCODES.NXDOMAIN;
  else if ('rcode' in entry) rcode = RCODES[entry.rcode];
  else answers = entry.filter((record) => RECORD_TYPES[record.type] === question.type);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // same id
  header.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | rcode, 2); // QR, RD copied, RA
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, query.subarray(12, question.end), ...answers.map(encodeAnswer)]);
}

/** Starts a UDP DNS responder on 127.0.0.1 serving `zone` (names absent from it answer NXDOMAIN). */
export async function startDnsResponder(zone: Record<string, ZoneEntry>): Promise<DnsResponder> {
  const socket: Socket = createSocket('udp4');
  const responder: DnsResponder = {
    server: '',
    queries: 0,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (query, peer) => {
    responder.queries += 1;
    const reply = answer(query, zone);
    if (reply) socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  responder.server = `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  return responder;
}

/** A 127.0.0.1 UDP port with nothing listening on it (bound, read, then closed). */
export async function findClosedUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}
