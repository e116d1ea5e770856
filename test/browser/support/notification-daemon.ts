// A desktop notification daemon for headless Chromium, so that a test can click a notification.
//
// Chromium on Linux shows web notifications through the desktop's notification server
// (org.freedesktop.Notifications on the D-Bus session bus) whenever one owns that name, and
// takes a click on it from the server's ActionInvoked signal: that is a real click to Chromium,
// which dispatches a trusted `notificationclick` to the service worker with the right to open or
// focus one window, exactly as after a user's click. Headless Chromium has no desktop, so this
// module stands in for it: it starts a private session bus (Debian's dbus-daemon, on a socket in
// a temporary directory), owns the notification server's name on it, records what Chromium asks
// it to show, and clicks on request. Pass `env` to the browser's launch.
//
// It speaks the D-Bus wire protocol itself (little-endian, the subset the notification
// specification needs) so the tests need no D-Bus library.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const NAME = 'org.freedesktop.Notifications';
const OBJECT_PATH = '/org/freedesktop/Notifications';
const MAX_MESSAGE_BYTES = 1 << 20;

export const DBUS_DAEMON = '/usr/bin/dbus-daemon';

/** One Notify call, as a desktop would show it. */
export interface DesktopNotification {
  /** the server's id, which Chromium passes back in CloseNotification and expects in signals */
  id: number;
  summary: string;
  body: string;
  /** pairs of action key and label: buttons are "0", "1", …; "default" is the body */
  actions: { key: string; label: string }[];
  closed: boolean;
}

export interface NotificationDaemon {
  /** environment for the browser: DBUS_SESSION_BUS_ADDRESS pointing at the private bus */
  env: Record<string, string>;
  notifications(): DesktopNotification[];
  /** every GetCapabilities, Notify and CloseNotification call received, in order */
  calls(): string[];
  /** clicks the notification: the body with "default", a button with its key ("0", …) */
  click(id: number, action?: string): void;
  close(): Promise<void>;
}

// ---- wire format ---------------------------------------------------------------------------

type Value = string | number | boolean | string[] | Value[];

class Writer {
  private bytes: number[] = [];
  constructor(private readonly base = 0) {}
  get length(): number {
    return this.bytes.length;
  }
  align(n: number): this {
    while ((this.base + this.bytes.length) % n !== 0) this.bytes.push(0);
    return this;
  }
  byte(v: number): this {
    this.bytes.push(v & 0xff);
    return this;
  }
  uint32(v: number): this {
    this.align(4);
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    this.bytes.push(...b);
    return this;
  }
  int32(v: number): this {
    this.align(4);
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.bytes.push(...b);
    return this;
  }
  string(v: string): this {
    const b = Buffer.from(v, 'utf8');
    this.uint32(b.length);
    this.bytes.push(...b, 0);
    return this;
  }
  signature(v: string): this {
    this.bytes.push(v.length, ...Buffer.from(v, 'ascii'), 0);
    return this;
  }
  /** One value of a basic type or an array of strings. */
  value(type: string, v: Value): this {
    switch (type) {
      case 's':
      case 'o':
        return this.string(v as string);
      case 'g':
        return this.signature(v as string);
      case 'u':
        return this.uint32(v as number);
      case 'i':
        return this.int32(v as number);
      case 'b':
        return this.uint32(v ? 1 : 0);
      case 'as': {
        this.uint32(0); // the array's byte length, filled in below
        const at = this.bytes.length - 4;
        this.align(4);
        const start = this.bytes.length;
        for (const s of v as string[]) this.string(s);
        const len = Buffer.alloc(4);
        len.writeUInt32LE(this.bytes.length - start);
        for (let i = 0; i < 4; i++) this.bytes[at + i] = len[i]!;
        return this;
      }
      default:
        throw new Error(`notification daemon: cannot write D-Bus type ${type}`);
    }
  }
  buffer(): Buffer {
    return Buffer.from(this.bytes);
  }
}

class Reader {
  constructor(
    private readonly buf: Buffer,
    public pos: number,
    private readonly base: number,
  ) {}
  align(n: number): void {
    while ((this.pos - this.base) % n !== 0) this.pos++;
  }
  byte(): number {
    return this.buf.readUInt8(this.pos++);
  }
  uint32(): number {
    this.align(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  string(): string {
    const len = this.uint32();
    const s = this.buf.toString('utf8', this.pos, this.pos + len);
    this.pos += len + 1;
    return s;
  }
  signature(): string {
    const len = this.byte();
    const s = this.buf.toString('ascii', this.pos, this.pos + len);
    this.pos += len + 1;
    return s;
  }
  /** Values of basic types and arrays of strings; anything else is not needed here. */
  value(type: string): Value {
    switch (type) {
      case 's':
      case 'o':
        return this.string();
      case 'g':
        return this.signature();
      case 'u':
        return this.uint32();
      case 'i': {
        this.align(4);
        const v = this.buf.readInt32LE(this.pos);
        this.pos += 4;
        return v;
      }
      case 'b':
        return this.uint32() !== 0;
      case 'y':
        return this.byte();
      case 'as': {
        const len = this.uint32();
        this.align(4);
        const end = this.pos + len;
        const out: string[] = [];
        while (this.pos < end) out.push(this.string());
        return out;
      }
      default:
        throw new Error(`notification daemon: cannot read D-Bus type ${type}`);
    }
  }
}

interface Message {
  type: number; // 1 call, 2 return, 3 error, 4 signal
  serial: number;
  path?: string;
  iface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  destination?: string;
  sender?: string;
  signature: string;
  body: Buffer;
}

const FIELD_TYPES: Record<number, string> = { 1: 'o', 2: 's', 3: 's', 4: 's', 5: 'u', 6: 's', 7: 's', 8: 'g', 9: 'u' };

function encode(m: Omit<Message, 'body' | 'signature'> & { signature?: string; args?: Value[] }): Buffer {
  const types = splitSignature(m.signature ?? '');
  const body = new Writer();
  (m.args ?? []).forEach((v, i) => body.value(types[i]!, v));
  const header = new Writer();
  header.byte('l'.charCodeAt(0)).byte(m.type).byte(m.type === 1 ? 0 : 1).byte(1);
  header.uint32(body.length).uint32(m.serial);
  const fields: [number, Value | undefined][] = [
    [1, m.path],
    [2, m.iface],
    [3, m.member],
    [4, m.errorName],
    [5, m.replySerial],
    [6, m.destination],
    [8, m.signature || undefined],
  ];
  const array = new Writer(16);
  for (const [code, v] of fields) {
    if (v === undefined) continue;
    array.align(8).byte(code).signature(FIELD_TYPES[code]!).value(FIELD_TYPES[code]!, v);
  }
  header.uint32(array.length);
  return Buffer.concat([header.buffer(), array.buffer(), Buffer.alloc((8 - ((16 + array.length) % 8)) % 8), body.buffer()]);
}

/** Total size of the message at the start of buf, or 0 while it is incomplete. */
function messageLength(buf: Buffer): number {
  if (buf.length < 16) return 0;
  if (buf[0] !== 'l'.charCodeAt(0)) throw new Error('notification daemon: big-endian D-Bus messages are not supported');
  const bodyLength = buf.readUInt32LE(4);
  const fieldsLength = buf.readUInt32LE(12);
  const total = 16 + fieldsLength + ((8 - (fieldsLength % 8)) % 8) + bodyLength;
  if (total > MAX_MESSAGE_BYTES) throw new Error(`notification daemon: D-Bus message of ${total} bytes`);
  return buf.length >= total ? total : 0;
}

function decode(buf: Buffer): Message {
  const fieldsLength = buf.readUInt32LE(12);
  const m: Message = { type: buf[1]!, serial: buf.readUInt32LE(8), signature: '', body: Buffer.alloc(0) };
  const end = 16 + fieldsLength;
  let pos = 16;
  while (pos < end) {
    const fr = new Reader(buf, pos, 0);
    fr.align(8);
    const code = fr.byte();
    const type = fr.signature();
    const v = fr.value(type);
    if (code === 1) m.path = v as string;
    if (code === 2) m.iface = v as string;
    if (code === 3) m.member = v as string;
    if (code === 4) m.errorName = v as string;
    if (code === 5) m.replySerial = v as number;
    if (code === 6) m.destination = v as string;
    if (code === 7) m.sender = v as string;
    if (code === 8) m.signature = v as string;
    pos = fr.pos;
  }
  const bodyStart = end + ((8 - (fieldsLength % 8)) % 8);
  m.body = buf.subarray(bodyStart);
  return m;
}

/** Splits a signature into complete types (only what this module reads or writes). */
function splitSignature(sig: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < sig.length; ) {
    let j = i;
    while (sig[j] === 'a') j++;
    if (sig[j] === '{' || sig[j] === '(') {
      const open = sig[j]!;
      const close = open === '{' ? '}' : ')';
      let depth = 0;
      for (; j < sig.length; j++) {
        if (sig[j] === open) depth++;
        if (sig[j] === close && --depth === 0) break;
      }
    }
    out.push(sig.slice(i, j + 1));
    i = j + 1;
  }
  return out;
}

function readArgs(m: Message, count: number): Value[] {
  const types = splitSignature(m.signature).slice(0, count);
  const r = new Reader(m.body, 0, 0);
  return types.map((t) => r.value(t));
}

// ---- the daemon ----------------------------------------------------------------------------

/** Reads the bus address dbus-daemon prints on its first line. */
function firstLine(child: ChildProcess, errors: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const nl = text.indexOf('\n');
      if (nl >= 0) {
        child.stdout!.off('data', onData);
        resolve(text.slice(0, nl).trim());
      }
    };
    child.stdout!.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code} before printing its address: ${errors()}`)));
  });
}

export async function startNotificationDaemon(): Promise<NotificationDaemon> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'webpush-dbus-'));
  const socketPath = path.join(dir, 'bus');
  const configFile = path.join(dir, 'session.conf');
  // A session bus without service activation: nothing but the browser and this daemon on it
  // (the stock session configuration would start an accessibility bus for Chromium).
  await writeFile(
    configFile,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socketPath}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`,
  );
  const bus = spawn(DBUS_DAEMON, [`--config-file=${configFile}`, '--nofork', '--nopidfile', '--nosyslog', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let busErrors = '';
  bus.stderr!.on('data', (chunk: Buffer) => {
    if (busErrors.length < 4096) busErrors += chunk.toString('utf8');
  });
  let socket: net.Socket | undefined;
  const stop = async () => {
    socket?.destroy();
    if (bus.exitCode === null && bus.signalCode === null) {
      const exited = new Promise((resolve) => bus.once('exit', resolve));
      bus.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const address = await firstLine(bus, () => busErrors);
    socket = net.createConnection(socketPath);
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', resolve);
      socket!.once('error', reject);
    });
    return await serve(socket, address, stop);
  } catch (err) {
    await stop();
    throw err;
  }
}

async function serve(socket: net.Socket, address: string, stop: () => Promise<void>): Promise<NotificationDaemon> {
  const shown: DesktopNotification[] = [];
  const calls: string[] = [];
  let serial = 0;
  let nextId = 1;
  const pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  let failure: Error | undefined;

  // Authentication: the SASL exchange in text lines, then binary messages.
  const uidHex = Buffer.from(String(process.getuid ? process.getuid() : 0), 'ascii').toString('hex');
  socket.write(Buffer.from([0]));
  socket.write(`AUTH EXTERNAL ${uidHex}\r\n`);
  let buf: Buffer = Buffer.alloc(0);
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const nl = buf.indexOf('\r\n');
      if (nl < 0) return;
      const line = buf.subarray(0, nl).toString('ascii');
      buf = buf.subarray(nl + 2);
      socket.off('data', onData);
      if (!line.startsWith('OK ')) return reject(new Error(`D-Bus authentication refused: ${line}`));
      socket.write('BEGIN\r\n');
      resolve();
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });

  const send = (m: Parameters<typeof encode>[0]) => socket.write(encode(m));
  const call = (member: string, signature: string, args: Value[]): Promise<Message> => {
    const s = ++serial;
    const reply = new Promise<Message>((resolve, reject) => pending.set(s, { resolve, reject }));
    send({ type: 1, serial: s, path: '/org/freedesktop/DBus', iface: 'org.freedesktop.DBus', member, destination: 'org.freedesktop.DBus', signature, args });
    return reply;
  };
  const reply = (to: Message, signature: string, args: Value[]) =>
    send({ type: 2, serial: ++serial, replySerial: to.serial, destination: to.sender, signature, args });
  const signal = (member: string, signature: string, args: Value[]) =>
    send({ type: 4, serial: ++serial, path: OBJECT_PATH, iface: NAME, member, signature, args });

  const handleCall = (m: Message) => {
    if (m.iface === 'org.freedesktop.DBus.Peer' && m.member === 'Ping') return reply(m, '', []);
    if (m.path !== OBJECT_PATH || (m.iface !== undefined && m.iface !== NAME)) {
      return send({ type: 3, serial: ++serial, replySerial: m.serial, destination: m.sender, errorName: 'org.freedesktop.DBus.Error.UnknownMethod', signature: 's', args: [`no ${m.iface}.${m.member} at ${m.path}`] });
    }
    calls.push(m.member ?? '');
    switch (m.member) {
      case 'GetCapabilities':
        return reply(m, 'as', [['body', 'actions']]);
      case 'GetServerInformation':
        return reply(m, 'ssss', ['webpush-test-desktop', 'webpush', '1.0', '1.2']);
      case 'Notify': {
        // susssasa{sv}i: app_name, replaces_id, app_icon, summary, body, actions, hints, timeout
        const [, replaces, , summary, body, actions] = readArgs(m, 6) as [string, number, string, string, string, string[]];
        const pairs: { key: string; label: string }[] = [];
        for (let i = 0; i + 1 < actions.length; i += 2) pairs.push({ key: actions[i]!, label: actions[i + 1]! });
        const existing = replaces ? shown.find((n) => n.id === replaces) : undefined;
        const id = existing ? existing.id : nextId++;
        if (existing) Object.assign(existing, { summary, body, actions: pairs, closed: false });
        else shown.push({ id, summary, body, actions: pairs, closed: false });
        return reply(m, 'u', [id]);
      }
      case 'CloseNotification': {
        const [id] = readArgs(m, 1) as [number];
        const n = shown.find((x) => x.id === id);
        if (n) n.closed = true;
        reply(m, '', []);
        return signal('NotificationClosed', 'uu', [id, 3]); // 3: closed by a CloseNotification call
      }
      default:
        return send({ type: 3, serial: ++serial, replySerial: m.serial, destination: m.sender, errorName: 'org.freedesktop.DBus.Error.UnknownMethod', signature: 's', args: [`no method ${m.member}`] });
    }
  };

  socket.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    try {
      for (let len = messageLength(buf); len > 0; len = messageLength(buf)) {
        const m = decode(buf.subarray(0, len));
        buf = buf.subarray(len);
        if ((m.type === 2 || m.type === 3) && m.replySerial !== undefined) {
          const waiter = pending.get(m.replySerial);
          pending.delete(m.replySerial);
          if (m.type === 3) waiter?.reject(new Error(`D-Bus error ${m.errorName}`));
          else waiter?.resolve(m);
        } else if (m.type === 1) handleCall(m);
      }
    } catch (err) {
      failure = err as Error;
      socket.destroy(failure);
    }
  });
  socket.on('close', () => {
    for (const w of pending.values()) w.reject(failure ?? new Error('D-Bus connection closed'));
    pending.clear();
  });

  await call('Hello', '', []);
  const owned = readArgs(await call('RequestName', 'su', [NAME, 4 /* DO_NOT_QUEUE */]), 1)[0];
  if (owned !== 1) throw new Error(`notification daemon: could not own ${NAME} (RequestName answered ${String(owned)})`);

  return {
    env: { DBUS_SESSION_BUS_ADDRESS: address },
    notifications: () => shown.map((n) => ({ ...n, actions: [...n.actions] })),
    calls: () => [...calls],
    click(id: number, action = 'default') {
      if (failure) throw failure;
      signal('ActionInvoked', 'us', [id, action]);
    },
    close: stop,
  };
}
