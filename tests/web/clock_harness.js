/* Test harness: runs the sessions the Python tests generate through the page's engine and
 * answers in the same shape as tests/web/clock_sessions.py's Python runner. */
(function (root) {
  "use strict";
  const E = root.ClockEngine;

  function plain(x) {
    if (typeof x === "bigint") return x.toString();
    if (Array.isArray(x)) return x.map(plain);
    if (x !== null && typeof x === "object") {
      const out = {};
      for (const k of Object.keys(x)) out[k] = plain(x[k]);
      return out;
    }
    return x;
  }

  function boardOut(b) {
    const { phase, a, b: bb, on_move, since_ns, move_ns, running_ns, delay_absorbed_ns,
      flagged, flag_ns } = b;
    return plain({ phase, a, b: bb, on_move, since_ns, move_ns, running_ns, delay_absorbed_ns,
      flagged, flag_ns });
  }

  function stateOut(s) { return { board1: boardOut(s.board1), board2: boardOut(s.board2) }; }

  function perform(clock, op, now) {
    switch (op[0]) {
      case "press": return clock.press(op[1], op[2], now);
      case "pause": return clock.pause(op[1], now);
      case "resume": return clock.resume(op[1], now);
      case "adjust":
        try { clock.adjust(op[1], op[2], BigInt(op[3]), now); } catch (err) {
          if (err instanceof E.ClockError) return false;
          throw err;
        }
        return true;
      case "checkpoint": return clock.checkpoint(now);
      case "stop": return clock.stop(op[1], now);
      case "flags": return clock.checkFlags(now).length;
      case "next-game": return clock.pause(op[1], now);
      case "game-starts": return clock.startGame(op[1], op[2], now);
      case "next-pair":
        clock.reset(op[1], now);
        clock.setFirstMover(op[1], op[2], now);
        clock.start(now);
        return true;
    }
    throw new Error("unknown op " + op[0]);
  }

  function guarded(fn) {
    try { return fn(); } catch (err) {
      if (err instanceof E.ClockError) return "error: " + err.message;
      throw err;
    }
  }

  /* `s.board` set: a phone's one-board clock (the session's operations name that board). */
  function runSession(s) {
    const tc = s.tc;
    const boards = s.board ? [s.board] : [1, 2];
    let now = BigInt(s.t0);
    let clock = new E.MatchClock(tc, () => now, boards);
    const steps = [];
    steps.push(guarded(() => {
      for (const n of boards) clock.setFirstMover(n, s.first[n - 1], now);
      clock.start(now);
      return true;
    }));
    for (const [gap, op] of s.steps) {
      now += BigInt(gap);
      let accepted;
      if (op[0] === "reload") {
        const prev = clock;
        accepted = guarded(() => {
          // "by board": board 1's events then board 2's, each board's own order kept
          const log = op[1] === "by board"
            ? prev.events.slice().sort((x, y) => x.board - y.board) : prev.events;
          clock = E.MatchClock.restore(log, tc, () => now, now, boards);
          return true;
        });
      } else {
        accepted = guarded(() => perform(clock, op, now));
      }
      const read = boards.map((n) => guarded(() => ({
        board: boardOut(clock.boardAt(n, now)),
        delay: clock.delayRemainingNs(n, now).toString(),
        shown: { A: E.formatRemaining(clock.remainingNs(n, "A", now)),
                 B: E.formatRemaining(clock.remainingNs(n, "B", now)) },
      })));
      steps.push([accepted, read]);
    }
    const replayed = (log) => guarded(() => stateOut(E.replay(log.map(E.eventFromWire), tc)));
    if (s.board) {
      return { steps, events: clock.events.map(E.eventToWire),
               state: boardOut(E.replay(clock.events, tc)[`board${s.board}`]) };
    }
    return {
      steps,
      events: clock.events.map(E.eventToWire),
      state: stateOut(clock.state),
      replayed: replayed(clock.events.map(E.eventToWire)),
      replayed_python: replayed(s.python_log),
      replayed_tampered: replayed(s.tampered_log),
    };
  }

  root.runClockSessions = (sessions) => JSON.stringify(sessions.map(runSession));
})(window);
