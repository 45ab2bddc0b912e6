// Adapter for our chat service's live protocol (libs/contracts/src/chat/live.ts, services/chat/src/live/) for the
// peers' load generator (../shared/bench-peers/chat/load.mjs, `--adapter bench/chat/adapters/ours.mjs`).
//
//   upgrade  GET /ws with `Cookie: district_session=<token>` (no Origin: a non-browser client)
//   -> {type:'join', name, role, chatroom[, since, resume, roster]}   <- {type:'joined', resume, seq, roster, participants?, …} | {type:'join_rejected', …}
//   -> {type:'message', text, chatroom, ref}
//   <- {type:'message', seq, id, name, role, text, timestamp, chatroom, ref}   to everyone in the room, sender included
//   <- {type:'sent', ref, seq}   to the sender of a ref the service already appended
//
// The load generator's {seq, sentAt} travel inside the text ("<seq> <sentAt> <padding>"): the service keeps only
// the text (trimmed), and numbers messages itself (its `seq`, per room, is used only for catch-up below).
//
// Options (--opt key=value):
//   setup=FILE       JSON written by chat.bench.ts: {"tokens": [...], "rooms": {"room-0": "<uuid>", …}}; client i
//                    uses tokens[i % tokens.length] (one user per client) and the room's chatroom id
//   failover=URLS    comma-separated /ws URLs: when a connection drops after joining (a killed replica), the client
//                    reconnects to the next one in this list and rejoins with `since` (last seq it saw) and
//                    `resume` (its seat token), so the loader sees no disconnect, only late or missing messages;
//                    without it a drop is reported to the loader as a disconnect
//   senders=N        the room's sender (client r < rooms) spreads its messages over N sockets of its own (same user,
//                    names load-<i>, load-<i>-s1…), each joined to the room; default 1. The service limits every
//                    connection to 5 messages in any 5 s window (CHAT_RATE_MESSAGES / CHAT_RATE_WINDOW_MS), and a
//                    steady 1 msg/s sender sits exactly on that boundary: arrival jitter makes the 6th message of
//                    a window come a little under 5 s after the 1st, and it is refused (notice rate_limited). With
//                    2 senders each socket sends 0.5 msg/s and the limit is not in play. The extra sockets' own
//                    deliveries are not counted (the loader only hears the main socket).
//   refs=0           send messages without a `ref` (default: with one, as the web client does). With refs, a room's
//                    sender holds each message until the room brings it back, and after a rejoin sends the ones
//                    it has not heard back again on the socket that sent them (the service appends a ref once), so
//                    a message on its way into a replica that dies is not lost; one refused by the rate limit
//                    (the backlog a sender queued while reconnecting, sent in a burst) goes again once the notice's
//                    retryAfterMs has passed
//   roster=0         rejoin without the roster digest (the protocol before it, as a control): every rejoin is
//                    answered with the whole participants list
//   origin=URL       send this Origin header (a browser's); none by default
//   timeoutMs=N      handshake timeout; the join may take as long again (default 15000)
//   reconnect=web    after a drop, reconnect as the web client does (web/src/features/chat/live/chat-connection.ts):
//                    the n-th attempt waits `backoffDelay(n)` (half to all of 0.5 s · 2^n, ≤ 10 s: 250–500 ms before
//                    the first), at most CHAT_RECONNECT_MAX_ATTEMPTS (12) attempts, and the join goes 100 ms
//                    (CHAT_JOIN_DELAY_MS) after the socket opens. The default. reconnect=now: the first attempt at
//                    once, the next ones after 100–300 ms, up to 20, and the join at once (the adapter before
//                    2026-11-28, kept as a control: one process opening 9,500 sockets in one turn holds its core
//                    for ~2 s, and the server waits for it)
//
// Every client keeps its room's roster digest as the web client would (from `joined.roster`, then ± each
// user_joined / user_left), and a rejoin sends it, so a rejoin into an unchanged room is answered without the
// participants list (`rosterSkipped` counts those). Like the web client, it must not count someone twice: a join
// answered from seats read from the store may list people whose user_joined is still on its way, so for
// ROSTER_DEDUPE_MS after a `joined` the names it listed are kept and their user_joined is not added again (the web
// client keeps its whole list by name; 19,000 clients here cannot). The hash is `chatParticipantHash` of libs/contracts/src/chat/
// live.ts, repeated here because this file runs in plain Node; a difference would show as rosterSkipped 0.
//
// At exit it prints one line on stderr: `[ours] {"notices":{…},"rejected":{…},"reconnects":…,"reconnectMsMax":…}`.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const now = () => performance.timeOrigin + performance.now();
const stats = {
  notices: {},
  rejected: {},
  seqGaps: 0,
  seqRepeats: 0,
  resent: 0,
  sentAnswers: 0,
  rosterSkipped: 0,
  rosterSent: 0,
  retriedAfterLimit: 0,
  rejoinUpgradeMs: [],
  rejoinJoinMs: [],
  reconnects: 0,
  reconnectFailures: 0,
  reconnectMs: [],
  dropsAt: [],
  backAt: [],
};
let setup;

function loadSetup(options) {
  if (!setup) {
    if (!options.setup)
      throw new Error('ours adapter: --opt setup=FILE is required (chat.bench.ts writes it)');
    const parsed = JSON.parse(readFileSync(options.setup, 'utf8'));
    setup = {
      tokens: parsed.tokens,
      rooms: new Map(Object.entries(parsed.rooms)),
      roomOf: new Map(Object.entries(parsed.rooms).map(([k, v]) => [v, k])),
    };
  }
  return setup;
}

const median = (xs) =>
  xs.length ? Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]) : null;

process.on('exit', () => {
  const ms = stats.reconnectMs.sort((a, b) => a - b);
  const pick = (p) =>
    ms.length ? Math.round(ms[Math.min(ms.length - 1, Math.ceil(p * ms.length) - 1)]) : null;
  const first = (xs) => (xs.length ? Math.min(...xs) : null);
  const last = (xs) => (xs.length ? Math.max(...xs) : null);
  const summary = {
    notices: stats.notices,
    rejected: stats.rejected,
    seqGaps: stats.seqGaps,
    seqRepeats: stats.seqRepeats,
    resent: stats.resent,
    sentAnswers: stats.sentAnswers,
    retriedAfterLimit: stats.retriedAfterLimit,
    rosterSkipped: stats.rosterSkipped,
    rosterSent: stats.rosterSent,
    reconnects: stats.reconnects,
    reconnectFailures: stats.reconnectFailures,
    reconnectMsP50: pick(0.5),
    reconnectMsMax: pick(1),
    // A rejoin's two halves: from the drop to the upgraded socket, and from there to `joined`.
    rejoinUpgradeMsP50: median(stats.rejoinUpgradeMs),
    rejoinJoinMsP50: median(stats.rejoinJoinMs),
    // From the first drop to the last client back (all clients rejoined and caught up).
    allBackMs:
      stats.dropsAt.length && stats.backAt.length
        ? Math.round(last(stats.backAt) - first(stats.dropsAt))
        : null,
  };
  process.stderr.write(`[ours] ${JSON.stringify(summary)}\n`);
});

/** FNV-1a over UTF-16 code units (libs/contracts/src/chat/live.ts). */
function fnv1a(text, basis) {
  let h = basis;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
/** `sums` ± one participant's share of the roster digest (`chatParticipantHash`, `chatRosterAdd`). */
function rosterAdd(sums, name, role, sign) {
  const key = `${role}\u0000${name}`;
  sums[0] = (sums[0] + sign * fnv1a(key, 0x811c9dc5)) >>> 0;
  sums[1] = (sums[1] + sign * fnv1a(key, 0x050c5d1f)) >>> 0;
}

const ROSTER_DEDUPE_MS = 10_000;

// The web client's reconnect constants (web/src/features/chat/chat.constants.ts, libs/contracts CHAT_JOIN_DELAY_MS).
const CHAT_RECONNECT_BASE_MS = 500;
const CHAT_RECONNECT_MAX_MS = 10_000;
const CHAT_RECONNECT_MAX_ATTEMPTS = 12;
const CHAT_JOIN_DELAY_MS = 100;
/** The web client's `backoffDelay`: the wait before the n-th consecutive attempt (0-based), "equal jitter". */
const backoffDelay = (attempt) => {
  const ceiling = Math.min(CHAT_RECONNECT_MAX_MS, CHAT_RECONNECT_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export default {
  name: 'ours',
  defaultUrl: 'ws://127.0.0.1:4105/ws',
  connect({ url, room, index, options = {}, onMessage, onClose }) {
    const { tokens, rooms, roomOf } = loadSetup(options);
    const chatroom = rooms.get(room);
    if (!chatroom) return Promise.reject(new Error(`no chatroom for ${room} in the setup file`));
    const token = tokens[index % tokens.length];
    const name = `load-${index}`;
    const failover = (options.failover ?? '').split(',').filter(Boolean);
    const timeout = Number(options.timeoutMs ?? 15000);
    const asWeb = (options.reconnect ?? 'web') === 'web';
    if (!asWeb && options.reconnect !== 'now')
      throw new Error(`ours adapter: reconnect=${options.reconnect} is neither web nor now`);

    let ws = null;
    let resume; // seat token of the last join
    let lastSeq = 0; // the service's per-room number of the last message this client saw
    let roster = null; // [sum, sum] of the room's roster digest, as this client has heard it
    let listed = null; // names of the last joined's participants, until listedUntil (ms)
    let listedUntil = 0;
    let closedByUs = false;
    let queue = null; // sends while reconnecting
    let dropAt = 0;
    let urlIndex = Math.max(0, failover.indexOf(url));
    const refs = options.refs !== '0';
    // ref -> { frame, via } of this room sender's messages not heard back yet (via: 0 the main socket, j an extra).
    const outbox = new Map();
    let nextRef = 0;
    const frameOf = (msg, via) => {
      const message = { type: 'message', text: `${msg.seq} ${msg.sentAt} ${msg.text}`, chatroom };
      if (!refs) return JSON.stringify(message);
      message.ref = `load-${index}-${nextRef++}`; // at least 8 characters, unique per client
      const frame = JSON.stringify(message);
      outbox.set(message.ref, { frame, via });
      return frame;
    };
    /**
     * A notice naming one of this sender's refs. A rate limit (the backlog queued while reconnecting goes out in a
     * burst) is answered as a person would press "Send again": once `retryAfterMs` has passed, on the socket that
     * sent it (or with the rejoin, if that socket is down meanwhile). Any other refusal drops the message.
     */
    const refused = (m) => {
      const held = outbox.get(m.ref);
      if (!held || m.code === 'not_joined') return; // not_joined: it goes again with the rejoin
      if (m.code !== 'rate_limited') {
        outbox.delete(m.ref);
        return;
      }
      setTimeout(
        () => {
          if (!outbox.has(m.ref) || closedByUs) return;
          const socket = held.via === 0 ? (queue ? null : ws) : extras[held.via - 1];
          if (socket && socket.readyState === WebSocket.OPEN) {
            socket.send(held.frame);
            stats.retriedAfterLimit++;
          }
        },
        Math.max(1, Number(m.retryAfterMs) || 1000),
      );
    };
    const extras = [];
    /**
     * After socket `via` rejoined: what it sent and the room has not brought back goes again, with its ref (the
     * replay after the join may still bring some back; the service answers those with `sent`, not a second copy).
     */
    const resend = (socket, via, skip = new Set()) => {
      for (const held of outbox.values()) {
        if (held.via !== via || skip.has(held.frame)) continue;
        socket.send(held.frame);
        stats.resent++;
      }
    };

    const onFrame = (data) => {
      const m = JSON.parse(data);
      if (m.type === 'message') {
        // The service's own numbering: a jump is a message it accepted that this client never got (a real gap,
        // unlike a message lost on its way in, which was never numbered); a repeat is a duplicate.
        if (m.seq > lastSeq + 1) stats.seqGaps += m.seq - lastSeq - 1;
        else if (m.seq <= lastSeq) stats.seqRepeats++;
        if (m.seq > lastSeq) lastSeq = m.seq;
        if (m.ref !== undefined) outbox.delete(m.ref);
        const text = m.text;
        const a = text.indexOf(' ');
        const b = text.indexOf(' ', a + 1);
        onMessage({
          room: roomOf.get(m.chatroom),
          seq: Number(text.slice(0, a)),
          sentAt: Number(text.slice(a + 1, b)),
        });
        return undefined;
      }
      if (roster && (m.type === 'user_joined' || m.type === 'user_left') && m.name !== name) {
        if (listed && now() > listedUntil) listed = null;
        if (m.type === 'user_left') listed?.delete(m.name);
        if (m.type === 'user_left' || !listed?.has(m.name))
          rosterAdd(roster, m.name, m.role, m.type === 'user_joined' ? 1 : -1);
      }
      if (m.type === 'notice') stats.notices[m.code] = (stats.notices[m.code] ?? 0) + 1;
      if (m.type === 'notice' && m.ref !== undefined) refused(m);
      if (m.type === 'sent') {
        stats.sentAnswers++;
        outbox.delete(m.ref);
      }
      return m;
    };

    // One connection + join; resolves once joined (replayed messages, if any, follow the joined frame).
    const open = (target, rejoin) =>
      new Promise((resolve, reject) => {
        const headers = { cookie: `district_session=${token}` };
        if (options.origin) headers.origin = options.origin;
        const socket = new WebSocket(target, {
          perMessageDeflate: false,
          handshakeTimeout: timeout,
          headers,
        });
        let joined = false;
        // The upgrade has handshakeTimeout; the join gets the same again.
        const timer = setTimeout(() => {
          if (joined) return;
          socket.terminate();
          reject(new Error('no joined within the timeout'));
        }, 2 * timeout);
        let openedAt = 0;
        const sendJoin = () => {
          if (socket.readyState !== WebSocket.OPEN) return;
          const join = { type: 'join', name, role: 'teacher', chatroom };
          if (rejoin)
            Object.assign(join, {
              since: lastSeq,
              resume,
              ...(roster && options.roster !== '0'
                ? { roster: `${roster[0].toString(36)}.${roster[1].toString(36)}` }
                : {}),
            });
          socket.send(JSON.stringify(join));
        };
        socket.on('open', () => {
          openedAt = now();
          if (rejoin) stats.rejoinUpgradeMs.push(openedAt - dropAt);
          // A rejoin goes as the web client's does, 100 ms after the open (the first joins of the connect phase at
          // once, so the ramp-up is as before).
          if (rejoin && asWeb) setTimeout(sendJoin, CHAT_JOIN_DELAY_MS);
          else sendJoin();
        });
        socket.on('message', (data) => {
          const m = onFrame(data);
          if (!m || joined) return;
          if (m.type === 'joined') {
            joined = true;
            clearTimeout(timer);
            resume = m.resume;
            if (typeof m.roster === 'string') roster = m.roster.split('.').map((x) => parseInt(x, 36));
            if (m.participants) {
              listed = new Set(m.participants.map((p) => p.name));
              listedUntil = now() + ROSTER_DEDUPE_MS;
            }
            if (rejoin) {
              stats.rejoinJoinMs.push(now() - openedAt);
              if (m.participants) stats.rosterSent++;
              else stats.rosterSkipped++;
            }
            if (!rejoin && m.seq > lastSeq) lastSeq = m.seq;
            resolve(socket);
          } else if (m.type === 'join_rejected') {
            stats.rejected[m.reason] = (stats.rejected[m.reason] ?? 0) + 1;
            socket.terminate();
            reject(new Error(`join_rejected ${m.reason}`));
          }
        });
        socket.on('error', (err) => {
          if (!joined) reject(err);
        });
        socket.on('unexpected-response', (_req, res) => {
          // The refusal's JSON says why (e.g. no replica up, or the session state not readable).
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => {
            if (!joined) reject(new Error(`upgrade answered ${res.statusCode}: ${body.slice(0, 90)}`));
            socket.terminate();
          });
          res.on('error', () => undefined);
        });
        socket.on('close', (code) => {
          if (!joined) reject(new Error(`closed before join (${code})`));
          else if (socket === ws) dropped(code);
        });
      });

    const handle = {
      send(msg) {
        const frame = frameOf(msg, 0);
        if (queue) queue.push(frame);
        else if (ws && ws.readyState === WebSocket.OPEN) ws.send(frame);
      },
      close() {
        closedByUs = true;
        if (ws) ws.terminate();
      },
    };

    async function dropped(code) {
      if (closedByUs) return;
      if (failover.length < 2) {
        onClose(`close ${code}`);
        return;
      }
      // Reconnect to the next replica in the list (the one that dropped us may be gone), catching up from lastSeq.
      dropAt = now();
      stats.dropsAt.push(dropAt);
      queue = [];
      ws = null;
      const attempts = asWeb ? CHAT_RECONNECT_MAX_ATTEMPTS : 20;
      for (let attempt = 0; attempt < attempts && !closedByUs; attempt++) {
        urlIndex = (urlIndex + 1) % failover.length;
        if (asWeb) await sleep(backoffDelay(attempt));
        if (closedByUs) break;
        try {
          ws = await open(failover[urlIndex], true);
          const back = now();
          stats.reconnects++;
          stats.reconnectMs.push(back - dropAt);
          stats.backAt.push(back);
          const pending = queue;
          queue = null;
          // What was sent before the drop, then what was queued while reconnecting.
          resend(ws, 0, new Set(pending));
          for (const frame of pending) ws.send(frame);
          return;
        } catch {
          if (!asWeb) await sleep(100 + Math.random() * 200);
        }
      }
      stats.reconnectFailures++;
      onClose(`reconnect failed after close ${code}`);
    }

    const senders = index < setup.rooms.size ? Math.max(1, Number(options.senders ?? 1)) : 1;
    if (senders === 1) {
      return open(url, false).then((socket) => {
        ws = socket;
        return handle;
      });
    }
    // Extra sender sockets: frames only go out on them (what they receive is read only for their own refusals).
    let turn = 0;
    const main = handle.send;
    handle.send = (msg) => {
      const k = turn++ % senders;
      const extra = k === 0 ? null : extras[k - 1];
      if (!extra || extra.readyState !== WebSocket.OPEN || queue) return main(msg);
      extra.send(frameOf(msg, k));
    };
    const closeMain = handle.close;
    handle.close = () => {
      for (const e of extras) e.terminate();
      closeMain();
    };
    // In failover mode an extra that drops is opened again on the next URL (its seat comes back with `resume`).
    // Extras are the bench's own (a web client has one socket), so they keep the at-once pace in both reconnect
    // modes: one per room, too few to matter, and the runs of 2026-11-28 measured them so.
    const keepExtra = (j, target, socket, seat) => {
      socket.once('close', async () => {
        if (closedByUs || failover.length < 2) return;
        let at = Math.max(0, failover.indexOf(target));
        for (let attempt = 0; attempt < 20 && !closedByUs; attempt++) {
          at = (at + 1) % failover.length;
          try {
            const { socket: again, resume: token2 } = await openExtraOn(j, failover[at], seat);
            extras[j - 1] = again;
            keepExtra(j, failover[at], again, token2);
            resend(again, j);
            return;
          } catch {
            await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
          }
        }
      });
    };
    const openExtra = (j) =>
      openExtraOn(j, url, undefined).then(({ socket, resume: seat }) => {
        keepExtra(j, url, socket, seat);
        return socket;
      });
    const openExtraOn = (j, target, seat) =>
      new Promise((resolve, reject) => {
        const headers = { cookie: `district_session=${token}` };
        const socket = new WebSocket(target, {
          perMessageDeflate: false,
          handshakeTimeout: timeout,
          headers,
        });
        socket.on('open', () =>
          socket.send(
            JSON.stringify({
              type: 'join',
              name: `${name}-s${j}`,
              role: 'teacher',
              chatroom,
              ...(seat ? { resume: seat } : {}),
            }),
          ),
        );
        const onJoin = (data) => {
          const m = JSON.parse(data);
          if (m.type === 'notice') stats.notices[m.code] = (stats.notices[m.code] ?? 0) + 1;
          if (m.type === 'notice' && m.ref !== undefined) refused(m);
          if (m.type === 'joined') resolve({ socket, resume: m.resume });
          else if (m.type === 'join_rejected') reject(new Error(`join_rejected ${m.reason}`));
        };
        socket.on('message', onJoin);
        socket.on('error', reject);
        socket.on('close', () => reject(new Error('closed before join')));
      });
    return open(url, false).then(async (socket) => {
      ws = socket;
      for (let j = 1; j < senders; j++) extras.push(await openExtra(j));
      return handle;
    });
  },
};
