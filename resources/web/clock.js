/* A board's clock on a phone (RULES §7): /clock/TOKEN/N.
 *
 * The phone charges time itself with the engine in clock_engine.js (equal to the domain's), at
 * each touch event's own timestamp. Its clock is lined up once per page with the desk's
 * monotonic clock (offset = desk time − page time, the sample with the shortest round trip), so
 * the log it sends is in the desk's time and both boards of a match start at one logged
 * instant. The log is kept on the phone (localStorage) and sent in order, numbered; the desk
 * stores what it does not have yet, so a phone off the Wi-Fi runs on and catches up later.
 * Names reach the page as text (textContent) only.
 */
(function () {
  "use strict";
  const E = window.ClockEngine;
  const [, , rawToken, rawBoard] = location.pathname.split("/");
  const token = decodeURIComponent(rawToken || "");
  const board = Number(rawBoard);
  const api = `/api/clock/${encodeURIComponent(token)}`;
  const storeKey = `tandem-clock:${token}:${board}`;
  const CHECKPOINT_MS = 500; // as the laptop: what a crash of the page can lose at most
  const RETRY_MS = 1000;
  const HEARTBEAT_MS = 2000; // the desk's live view hears from a running board this often
  const HOLD_MS = 700; // the menu opens on a deliberate hold, never on a tap
  const BATCH = 200;
  const COMMAND_LIFE_NS = 60000000000n;
  const SPIN_MS = 25;
  const LINE_UP_SAMPLES = 9;
  const SPIN_NS = 50000000n; // never busy-wait longer than this
  const $ = (id) => document.getElementById(id);

  const ui = {
    far: $("face-far"), near: $("face-near"), status: $("status"), start: $("start"),
    forfeit: $("forfeit"), menu: $("menu"), dialog: $("settings"), info: $("settings-info"), sync: $("sync"),
    title: $("settings-title"),
  };

  let info = null; // the desk's view of this board (GET /api/clock/TOKEN/N)
  let clock = null;
  let offset = 0n; // desk ns − page ns
  let lined = false; // the offset came from the desk (not a fallback)
  let sent = 0; // events of this board the desk has
  let pair = 0;
  // RULES §10: the match clock paused by a recorded game; the desk knows it (`between_games`)
  let betweenGames = false;
  let applied = new Set(); // starts and commands carried out
  let swapped = false; // the near face is side A unless swapped
  let sending = false;
  let lastSend = 0;
  let online = false;
  let problem = "";
  let otherPhone = false; // the desk hears another phone timing this board too
  // this phone's id (128 random bits), so the desk can tell two phones on one board apart
  const phoneId = (() => {
    let id = null;
    try { id = JSON.parse(localStorage.getItem("tandem.clock-phone")); } catch { /* none yet */ }
    if (!id || !/^[0-9a-f]{32}$/.test(id)) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (x) => x.toString(16).padStart(2, "0")).join("");
      try { localStorage.setItem("tandem.clock-phone", JSON.stringify(id)); } catch { /* this page */ }
    }
    return id;
  })();
  let awake = "not asked yet";
  let waking = false;
  // the screen kept on: NoSleep.js takes the Wake Lock API where the browser offers it (https
  // or localhost) and otherwise plays a silent looping video, which keeps a phone's screen on
  // too; on the club's plain-http Wi-Fi that is the way, and a browser plays it only once the
  // player has touched the page (the first tap names the first mover)
  const noSleep = new NoSleep();
  const down = { near: new Set(), far: new Set() }; // fingers on each face

  const pageNs = (ms) => E.nsFromTimeStamp(ms) + offset;
  const nowNs = () => pageNs(performance.now());
  const sideOf = (face) => ((face === "near") !== swapped ? "A" : "B");
  const floorOf = () => (clock && clock._floor !== null ? clock._floor : null);
  // an event stamped before the last logged action (a queued touch) counts at that action
  const atLeastFloor = (t) => { const f = floorOf(); return f !== null && t < f ? f : t; };

  function boardNow() { return clock.boardAt(board, atLeastFloor(nowNs())); }

  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey) || "null"); } catch { return null; }
  }

  function save() {
    if (!clock) return;
    const kept = {
      log: clock.events.map(E.eventToWire), sent, pair, applied: [...applied].slice(-100),
      swapped, info, betweenGames,
    };
    try { localStorage.setItem(storeKey, JSON.stringify(kept)); } catch { /* full: the desk has it */ }
  }

  async function getJSON(url, options) {
    const r = await fetch(url, { cache: "no-store", ...options });
    let body = null;
    try { body = await r.json(); } catch { body = null; }
    // a 2xx cut off mid-body (the desk died while it answered) is no answer: as when offline
    if (r.ok && body === null) throw new Error("the desk's answer was cut off");
    return { ok: r.ok, status: r.status, body };
  }

  /* Line the page's clock up with the desk's: the sample with the shortest round trip. */
  async function lineUp() {
    let best = null;
    for (let i = 0; i < LINE_UP_SAMPLES; i++) {
      const t0 = performance.now();
      const r = await getJSON("/api/clock-time");
      const t1 = performance.now();
      if (!r.ok) throw new Error("no desk time");
      if (best === null || t1 - t0 < best.rtt) {
        best = { rtt: t1 - t0, offset: BigInt(r.body.server_ns) - E.nsFromTimeStamp((t0 + t1) / 2) };
      }
    }
    offset = best.offset;
    lined = true;
    window.clockLineUpMs = best.rtt;
    ui.sync.textContent = `Lined up with the desk to within ${(best.rtt / 2).toFixed(1)} ms.`;
  }

  function sameEvents(a, b) {
    return a.length <= b.length && a.every((e, i) => JSON.stringify(e) === JSON.stringify(b[i]));
  }

  function build(serverLog, kept) {
    let log = serverLog;
    sent = serverLog.length;
    if (kept && Array.isArray(kept.log) && sameEvents(serverLog, kept.log)) {
      log = kept.log; // what the desk does not have yet is still on the phone
      applied = new Set(kept.applied || []);
      swapped = !!kept.swapped;
    }
    // the desk's word, unless this phone holds a later log than the desk (not sent yet)
    betweenGames = log !== serverLog && log.length > serverLog.length
      ? !!kept.betweenGames : !!info.between_games;
    const tc = info.time_control;
    const events = log.map(E.eventFromWire);
    if (!lined && events.length) { // offline: carry on from the last logged instant
      offset = events[events.length - 1].t_ns - E.nsFromTimeStamp(performance.now());
    }
    clock = events.length
      ? E.MatchClock.restore(events, tc, nowNs, nowNs(), [board])
      : new E.MatchClock(tc, nowNs, [board]);
    pair = kept && kept.pair && log === kept.log ? kept.pair : info.pair;
  }

  /* The desk's news: the next pair resets the board, a recorded game stops it. An individual
   * match's clock (RULES §10, as the desk's clock window) is paused by a recorded game with
   * both reserves kept, never reset, and stopped only when the match is over. */
  function follow() {
    if (!clock || !info) return;
    const t = atLeastFloor(nowNs());
    const live = () => ["running", "paused"].includes(clock.state[`board${board}`].phase);
    if (info.match_clock) {
      if (info.finished) {
        if (live()) clock.stop(board, t);
        betweenGames = false;
      } else if (info.pair > pair) {
        const b = clock.state[`board${board}`];
        if (b.phase === "running") clock.pause(board, t);
        betweenGames = clock.state[`board${board}`].phase === "paused";
        pair = info.pair;
      } else if (info.between_games && sent >= clock.eventCount
                 && clock.state[`board${board}`].phase === "paused") {
        betweenGames = true; // the desk has all this phone logged: it says the game is over
      }
      changed();
      return;
    }
    if (info.pair > pair) { // both games of the pair are recorded: the game ended, next pair
      if (live()) clock.stop(board, t);
      clock.reset(board, t);
      pair = info.pair;
    }
    if ((info.recorded || info.finished) && live()) clock.stop(board, t);
    changed();
  }

  function changed() { save(); send(); render(); }

  /* Send what the desk does not have; `hello` sends even nothing, so a desk that restarted
   * hears of this board at once. */
  async function send(hello = false) {
    if (sending || !clock) return;
    const events = clock.events;
    if (sent >= events.length && !hello) return;
    sending = true;
    lastSend = performance.now();
    const first = sent;
    try {
      const r = await getJSON(`${api}/${board}/log`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ first, phone: phoneId, events: events.slice(first, first + BATCH).map(E.eventToWire) }),
      });
      online = true;
      if (r.ok) {
        sent = r.body.stored;
        problem = "";
        otherPhone = r.body.other_phone === true;
      } else if (r.status === 409 && r.body && typeof r.body.stored === "number" && r.body.stored < first) {
        sent = r.body.stored; // the desk lost the end of the log: send it again
      } else {
        problem = (r.body && r.body.error) || `the desk refused the log (${r.status})`;
      }
    } catch {
      online = false;
    } finally {
      sending = false;
    }
    save();
    render();
    if (online && !problem && sent < clock.events.length) send();
  }

  function tap(face, timeStamp) {
    if (!clock) return;
    const side = sideOf(face);
    const t = atLeastFloor(pageNs(timeStamp));
    const b = clock.state[`board${board}`];
    try {
      if (b.phase === "ready") {
        if (b.on_move === side) return;
        clock.setFirstMover(board, side, t);
      } else if (betweenGames && b.phase === "paused") { // the next game starts with a press
        if (clock.startGame(board, side, t)) betweenGames = false;
        if (navigator.vibrate) navigator.vibrate(25);
      } else if (clock.press(board, side, t)) {
        if (navigator.vibrate) navigator.vibrate(25);
      } else {
        clock.checkFlags(t);
      }
    } catch (err) {
      if (!(err instanceof E.ClockError)) throw err;
      problem = err.message;
    }
    changed();
  }

  function startAt(start) {
    if (!start || !clock || applied.has(start.id) || start.pair !== pair) return;
    const b = clock.state[`board${board}`];
    if (b.phase !== "ready" || b.on_move === null) return;
    applied.add(start.id);
    const at = BigInt(start.at_ns);
    const go = () => {
      try {
        clock.start(atLeastFloor(at)); // the logged instant is the common one, even if late
        window.clockStartedAt = performance.timeOrigin + performance.now();
        window.clockStartLateMs = Number(nowNs() - at) / 1e6; // > 0: the start came late
      } catch (err) {
        if (!(err instanceof E.ClockError)) throw err;
        problem = err.message;
      }
      changed();
    };
    // a timer may fire late on a busy phone: wake a little early, then wait out the rest
    const spin = () => { while (nowNs() < at && at - nowNs() < SPIN_NS) { /* the last ms */ } go(); };
    const wait = Number((at - nowNs()) / 1000000n) - SPIN_MS;
    if (wait > 0) setTimeout(spin, wait); else spin();
  }

  function obey(commands) {
    for (const c of commands || []) {
      if (c.board !== board || applied.has(c.id)) continue;
      applied.add(c.id);
      const t = atLeastFloor(nowNs());
      if (t - BigInt(c.issued_ns) > COMMAND_LIFE_NS) continue;
      try {
        if (c.kind === "pause") clock.pause(board, t);
        if (c.kind === "resume") clock.resume(board, t);
        if (c.kind === "adjust") clock.adjust(board, c.side, BigInt(c.value), t);
      } catch (err) {
        if (!(err instanceof E.ClockError)) throw err;
        problem = `the desk's ${c.kind}: ${err.message}`;
      }
    }
    changed();
  }

  function onChannel(data) {
    if (!clock) return;
    obey(data.commands);
    startAt(data.start);
  }

  /* Each push asks again, and on a busy Wi-Fi the answers may come back out of order: only
   * an answer asked for after the one taken replaces it (an older one would undo the news). */
  let asked = 0;
  let taken = 0;

  async function refresh() {
    const n = ++asked;
    try {
      const r = await getJSON(`${api}/${board}`);
      if (r.ok && n > taken) { taken = n; info = r.body; online = true; follow(); }
    } catch { if (n > taken) online = false; }
  }

  let listening = false;

  function listen() {
    listening = true;
    const stream = new EventSource(
      `/events?ch=${encodeURIComponent(info.channel)}&ch=match:${info.match_id}`);
    stream.addEventListener(info.channel, (ev) => onChannel(JSON.parse(ev.data)));
    stream.addEventListener(`match:${info.match_id}`, () => refresh());
    stream.onopen = () => { online = true; send(true); render(); };
    stream.onerror = () => { online = false; render(); };
  }

  function faceText(face) {
    const el = ui[face];
    const side = sideOf(face);
    const b = boardNow();
    const running = b.phase === "running" && b.on_move === side;
    const remaining = side === "A" ? b.a.remaining_ns : b.b.remaining_ns;
    // each name its own bidi paragraph (FSI … PDI): an Arabic team keeps " · " in its place
    const team = info.match_clock ? "" : ` · \u2068${info.teams[side]}\u2069`; // a player alone
    el.querySelector(".who").textContent = `\u2068${info.players[side]}\u2069${team}`;
    el.querySelector(".time").textContent = E.formatRemaining(remaining);
    let note = "";
    if (b.phase === "ready") note = b.on_move === side ? "moves first" : "tap if you move first";
    else if (b.flagged === side) note = info.match_clock ? "flag: reserve ran out" : "flag: time is up";
    else if (running) {
      const delay = clock.delayRemainingNs(board, atLeastFloor(nowNs()));
      note = delay > 0n ? `delay ${E.formatRemaining(delay)}` : "your move: tap when done";
    } else if (b.phase === "paused") {
      // the next game starts with a press: a tap runs the opponent's clock (RULES §10)
      note = betweenGames ? "game over: tap to start your opponent's clock" : "paused";
    }
    else if (b.phase === "stopped") note = info.finished ? "match over" : "game over";
    el.querySelector(".note").textContent = note;
    el.classList.toggle("running", running);
    el.classList.toggle("flagged", b.flagged === side);
    el.classList.toggle("low", running && remaining < 20n * E.NS_PER_SECOND);
    el.dataset.side = side;
  }

  function render() {
    if (!clock || !info) return;
    faceText("near");
    faceText("far");
    const b = boardNow();
    const waiting = clock.eventCount - sent;
    let status = info.match_clock
      ? `Table ${info.table} · game ${pair} · match reserve ${info.time_control.label}`
      : `Table ${info.table} · board ${board} · pair ${pair}`;
    if (info.finished) {
      status = `Match over: ${info.teams.A} ${info.score.A} – ${info.score.B} ${info.teams.B}`;
      if (info.match_clock && info.score.A !== info.score.B) { // RULES §10: no draws
        status += ` · ${info.teams[info.score.A > info.score.B ? "A" : "B"]} wins the match`;
      }
    } else if (b.phase === "ready") {
      status += b.on_move ? " · ready" : " · who moves first?";
    }
    if (info.match_clock && b.flagged !== null && !info.finished) { // RULES §10: the match is lost
      const loser = info.players[b.flagged], winner = info.players[E.other(b.flagged)];
      status += ` · ${loser}'s reserve ran out: ${winner} wins the match (the desk records it)`;
    }
    if (!online) status += ` · offline, ${waiting} to send`;
    if (problem) status += ` · ${problem}`;
    if (otherPhone) status += " · another phone times this board too: keep one phone per board";
    ui.status.textContent = status;
    ui.start.hidden = !(b.phase === "ready" && b.on_move !== null && !info.finished);
    // a flag: the board's slip with RULES §5's proposal (the other side wins on time, the
    // flagged player has borne off nothing: 3 × cube); the desk's entry opens the same
    ui.forfeit.hidden = b.flagged === null || info.recorded || info.match_clock;
    if (b.flagged !== null) {
      const q = new URLSearchParams({ board, end: "time", winner: E.other(b.flagged), loser_borne_off: 0 });
      ui.forfeit.href = `/slip/${encodeURIComponent(token)}?${q}`;
    }
    document.body.dataset.phase = b.phase;
    document.body.dataset.sent = String(sent);
    document.body.dataset.events = String(clock.eventCount);
  }

  function tick() {
    if (clock) {
      const t = atLeastFloor(nowNs());
      const before = clock.eventCount;
      // a running board logs a checkpoint; any other waits: nothing can flag, and the floor
      // stays where it is (a start that arrives late still starts at the common instant)
      if (clock.state[`board${board}`].phase === "running") clock.checkpoint(t); // flags too
      if (clock.eventCount !== before) save();
      // checkpoints go to the desk with the next action, or every HEARTBEAT_MS at least
      if (clock.eventCount > sent && performance.now() - lastSend > HEARTBEAT_MS) send();
    }
  }

  function showAwake(how, text) {
    awake = text;
    document.body.dataset.awake = how;
  }

  if (noSleep.noSleepVideo) {
    const video = noSleep.noSleepVideo;
    video.addEventListener("playing", () => showAwake("video", "the screen stays on"));
    video.addEventListener("pause", () => showAwake("asleep", "the screen may sleep: tap the clock"));
  }

  function noteLock() { // the Wake Lock NoSleep holds (it takes it again when the page shows)
    const lock = noSleep._wakeLock;
    if (!lock || lock.released) return;
    showAwake("wake-lock", "the screen stays on");
    lock.addEventListener("release", () => {
      showAwake("asleep", "the screen may sleep until the page is shown again");
    });
  }

  async function keepAwake() {
    const video = noSleep.noSleepVideo;
    if (waking || (video ? !video.paused : noSleep.isEnabled)) return; // NoSleep keeps a lock
    waking = true;
    try {
      await noSleep.enable();
      if (!video) noteLock();
    } catch (err) {
      showAwake("asleep", video ? "the screen may sleep until the clock is touched"
        : `the screen may sleep (${err.name}): set the phone's screen timeout to the longest`);
    } finally {
      waking = false;
    }
  }

  function bindFace(face) {
    const el = ui[face];
    el.addEventListener("pointerdown", (ev) => {
      ev.preventDefault();
      const fingers = down[face];
      const first = fingers.size === 0; // a second finger on a face already held does nothing
      fingers.add(ev.pointerId);
      if (first) tap(face, ev.timeStamp);
    });
    const lift = (ev) => down[face].delete(ev.pointerId);
    el.addEventListener("pointerup", lift);
    el.addEventListener("pointercancel", lift);
    el.addEventListener("contextmenu", (ev) => ev.preventDefault());
    el.addEventListener("click", (ev) => ev.preventDefault()); // the press was on touch-down
  }

  function bindMenu() {
    let timer = null;
    ui.menu.addEventListener("pointerdown", (ev) => {
      ev.preventDefault();
      ui.menu.classList.add("holding");
      timer = setTimeout(() => { timer = null; ui.menu.classList.remove("holding"); openMenu(); }, HOLD_MS);
    });
    const cancel = () => {
      if (timer !== null) { clearTimeout(timer); timer = null; }
      ui.menu.classList.remove("holding");
    };
    ui.menu.addEventListener("pointerup", cancel);
    ui.menu.addEventListener("pointerleave", cancel);
    ui.menu.addEventListener("pointercancel", cancel);
    $("pause").addEventListener("click", () => { clock.pause(board, atLeastFloor(nowNs())); changed(); });
    $("resume").addEventListener("click", () => {
      if (!clock.resume(board, atLeastFloor(nowNs()))) problem = "this board is not paused";
      changed();
    });
    $("swap").addEventListener("click", () => { swapped = !swapped; changed(); });
    $("close").addEventListener("click", () => ui.dialog.close());
    ui.start.addEventListener("click", async () => {
      try {
        const r = await getJSON(`${api}/start`, { method: "POST" });
        if (r.ok) { problem = ""; startAt(r.body.start); } else problem = r.body ? r.body.error : "";
      } catch { problem = "the desk cannot be reached: start when back on the Wi-Fi"; }
      render();
    });
  }

  function openMenu() {
    const tc = info.time_control;
    ui.title.textContent = `Table ${info.table}, board ${board}`;
    ui.info.textContent = `${tc.label}. ${info.players.A} (${info.teams.A}) v ${info.players.B} ` +
      `(${info.teams.B}). Desk has ${sent} of ${clock.eventCount} ` +
      `event${clock.eventCount === 1 ? "" : "s"}; ${awake}.`;
    ui.dialog.showModal();
  }

  async function main() {
    bindFace("near");
    bindFace("far");
    bindMenu();
    keepAwake(); // the Wake Lock needs no touch; the video waits for one
    // a touch ends on pointerup: what lets a page play a video (a press counts on pointerdown)
    document.addEventListener("pointerup", keepAwake);
    document.addEventListener("click", keepAwake);
    document.addEventListener("visibilitychange", () => {
      // NoSleep takes the Wake Lock again itself; a paused video is played again here
      if (document.visibilityState !== "visible") return;
      if (noSleep.noSleepVideo) keepAwake(); else setTimeout(noteLock, 1000);
    });
    const kept = load();
    try {
      await lineUp();
      const r = await getJSON(`${api}/${board}`);
      if (!r.ok) {
        ui.status.textContent = (r.body && r.body.error) || `refused (${r.status})`;
        document.body.dataset.refused = String(r.status);
        return;
      }
      info = r.body;
      online = true;
    } catch {
      if (!kept || !kept.info) { ui.status.textContent = "the desk cannot be reached"; return; }
      info = kept.info; // offline: the phone runs on what it kept
    }
    build(info.log, kept);
    follow();
    if (online) { listen(); onChannel(info); }
    setInterval(tick, CHECKPOINT_MS);
    setInterval(async () => {
      if (!listening) { await refresh(); if (online) { listen(); onChannel(info); } }
      if (!sending && clock.eventCount > sent && performance.now() - lastSend > RETRY_MS) send();
    }, RETRY_MS);
    const frame = () => { render(); requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
    document.body.dataset.ready = "1";
  }

  main();
})();
