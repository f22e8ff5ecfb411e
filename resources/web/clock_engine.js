/* The two-sided game clocks of a match, on the phone: a line-by-line port of the domain's
 * engine (director/domain/clock.py, RULES §7, §5), kept equal to it by property tests that run
 * the same random press logs through both (tests/web/test_clock_engine_equality.py).
 *
 * Time is integer nanoseconds as BigInt, exactly as in the domain: the page turns a touch
 * event's own timestamp (a DOMHighResTimeStamp in ms from the page's monotonic clock) into
 * integer microseconds and then nanoseconds (`nsFromTimeStamp`), and charges from timestamps at
 * each action, never by counting timer ticks. Events and states are plain objects with the
 * domain's field names, so a log written here is stored exactly as the laptop clock's.
 *
 * Change clock.py and this file together; the equality tests fail when they differ.
 */
(function (root) {
  "use strict";

  const NS_PER_SECOND = 1000000000n;
  const TENTHS_BELOW_NS = 20n * NS_PER_SECOND;
  const BOARDS = [1, 2];
  const SIDES = ["A", "B"];
  const KINDS = [
    "first-mover", "start", "press", "pause", "resume", "adjust",
    "flag", "stop", "reset", "checkpoint", "restore",
  ];
  const WITH_SIDE = new Set(["first-mover", "start", "press", "adjust", "flag"]);
  const PHASES = ["ready", "running", "paused", "stopped"];
  const MODES = ["fischer", "bronstein", "delay"];

  class ClockError extends Error {}

  const isInt = (x) => typeof x === "bigint";
  const maxBig = (a, b) => (a > b ? a : b);
  const minBig = (a, b) => (a < b ? a : b);
  const other = (side) => (side === "A" ? "B" : "A");

  function timeControl(tc) {
    const base = Number(tc.base_seconds), inc = Number(tc.increment_seconds);
    if (!Number.isInteger(base) || !Number.isInteger(inc) || !MODES.includes(tc.mode)) {
      throw new ClockError("malformed time control " + JSON.stringify(tc));
    }
    const problems = [];
    if (base < 0) problems.push("the base time cannot be negative");
    if (inc < 0) problems.push("the increment or delay cannot be negative");
    if (base === 0 && inc === 0) {
      problems.push("a clock needs some time: base and increment are both 0");
    }
    return Object.freeze({
      base_seconds: base, increment_seconds: inc, mode: tc.mode, problems,
      base_ns: BigInt(base) * NS_PER_SECOND, increment_ns: BigInt(inc) * NS_PER_SECOND,
    });
  }

  function event(kind, t_ns, board, side = null, value = null) {
    if (!KINDS.includes(kind) || ![null, "A", "B"].includes(side)) {
      throw new ClockError(`malformed clock event ${kind} ${side}`);
    }
    if (!BOARDS.includes(board)) throw new ClockError(`there is no board ${board}`);
    if (!isInt(t_ns)) {
      throw new ClockError(`a clock time must be integer nanoseconds, not ${t_ns}`);
    }
    if ((side === null) === WITH_SIDE.has(kind)) {
      throw new ClockError(`a ${kind} event ${side === null ? "needs" : "has no"} side`);
    }
    if ((value === null) === (kind === "adjust") || !(value === null || isInt(value))) {
      throw new ClockError(`a ${kind} event has the wrong value ${value}`);
    }
    return Object.freeze({ kind, t_ns, board, side, value });
  }

  /* The wire and storage form: the domain's `ClockEvent.to_dict`, integers as decimal strings
   * (JSON numbers lose nanoseconds past 2**53 in a browser). */
  function eventToWire(e) {
    return {
      kind: e.kind, t_ns: e.t_ns.toString(), board: e.board, side: e.side,
      value: e.value === null ? null : e.value.toString(),
    };
  }

  function eventFromWire(d) {
    const big = (x) => {
      if (typeof x !== "string" || !/^-?[0-9]{1,20}$/.test(x)) {
        throw new ClockError(`malformed clock time ${JSON.stringify(x)}`);
      }
      return BigInt(x);
    };
    return event(d.kind, big(d.t_ns), d.board, d.side, d.value === null ? null : big(d.value));
  }

  function sideClock(remaining_ns, consumed_ns = 0n, credited_ns = 0n, adjusted_ns = 0n) {
    return Object.freeze({ remaining_ns, consumed_ns, credited_ns, adjusted_ns });
  }

  function boardClock(fields) {
    return Object.freeze({
      phase: "ready", a: null, b: null, on_move: null, since_ns: 0n, move_ns: 0n,
      running_ns: 0n, delay_absorbed_ns: 0n, flagged: null, flag_ns: null, ...fields,
    });
  }

  const replace = (b, fields) => boardClock({ ...b, ...fields });
  const sideOf = (b, side) => (side === "A" ? b.a : b.b);
  const withSide = (b, side, clock) => replace(b, side === "A" ? { a: clock } : { b: clock });

  function freshBoard(tc) {
    const base = sideClock(tc.base_ns);
    return boardClock({ phase: "ready", a: base, b: base });
  }

  function initialState(tc) {
    return Object.freeze({ board1: freshBoard(tc), board2: freshBoard(tc) });
  }

  function boardOf(state, board) {
    if (!BOARDS.includes(board)) throw new ClockError(`there is no board ${board}`);
    return board === 1 ? state.board1 : state.board2;
  }

  function withBoard(state, board, clock) {
    return Object.freeze(board === 1 ? { ...state, board1: clock } : { ...state, board2: clock });
  }

  /* Simple delay still to run in this move before main time is touched (0 in other modes). */
  function delayLeft(b, tc) {
    if (tc.mode !== "delay") return 0n;
    return maxBig(0n, tc.increment_ns - b.move_ns);
  }

  /* The instant the running side reaches zero if nothing happens first; null if not running. */
  function flagAt(b, tc) {
    if (b.phase !== "running" || b.on_move === null) return null;
    return b.since_ns + delayLeft(b, tc) + sideOf(b, b.on_move).remaining_ns;
  }

  /* Charge the running stretch up to t, or up to the flag if that comes first. */
  function settle(b, t, tc) {
    const flag = flagAt(b, tc);
    if (flag === null || b.on_move === null) return b;
    if (t < b.since_ns) {
      throw new ClockError(`time went backwards: ${t} ns is before ${b.since_ns} ns`);
    }
    const end = minBig(t, flag);
    const elapsed = end - b.since_ns;
    const absorbed = minBig(elapsed, delayLeft(b, tc));
    const m = sideOf(b, b.on_move), charged = elapsed - absorbed;
    b = withSide(b, b.on_move, sideClock(
      m.remaining_ns - charged, m.consumed_ns + charged, m.credited_ns, m.adjusted_ns));
    b = replace(b, {
      since_ns: end,
      move_ns: b.move_ns + elapsed,
      running_ns: b.running_ns + elapsed,
      delay_absorbed_ns: b.delay_absorbed_ns + absorbed,
    });
    if (t >= flag) b = replace(b, { phase: "stopped", flagged: b.on_move, flag_ns: flag });
    return b;
  }

  const NOT_RUNNING = "the clock is not running";
  const STARTED = "the clock has already started; reset it first";
  const ALLOWED = {
    // ready: the opening roll; paused: the next game of a match clock (RULES §10, startGame)
    "first-mover": [["ready", "paused"], STARTED],
    start: [["ready"], STARTED],
    press: [["running"], NOT_RUNNING],
    pause: [["running"], NOT_RUNNING],
    checkpoint: [["running"], NOT_RUNNING],
    resume: [["paused"], "the clock is not paused"],
    adjust: [["paused"], "a time may be adjusted only while the clock is paused"],
    stop: [["running", "paused"], "the clock is not running or paused"],
    reset: [PHASES, ""],
    restore: [["ready", "paused", "stopped"], "the clock is running"],
  };

  /* Why e cannot happen to board b now, or null when it can (flags are checked apart). */
  function refusal(b, e) {
    const [phases, why] = ALLOWED[e.kind] || [[], "a flag is not an action"];
    // the arbiter pauses a flagged board by name to correct it (domain/clock.py)
    if (e.kind === "pause" && b.flagged !== null) return b.phase === "stopped" ? null : NOT_RUNNING;
    if (!phases.includes(b.phase)) return why;
    if ((e.kind === "resume" || e.kind === "first-mover") && b.flagged !== null) {
      return `the flag of ${b.flagged}${e.board} stands: restore a time first`;
    }
    if ((e.kind === "start" || e.kind === "press") && b.on_move !== e.side) {
      return `side ${e.side} is not on move`;
    }
    if (e.value !== null && e.value < 0n) return "a remaining time cannot be negative";
    return null;
  }

  function press(b, t, tc) {
    const presser = b.on_move;
    if (presser === null) throw new ClockError("nobody is on move");
    let credit = 0n;
    if (tc.mode === "bronstein") credit = minBig(b.move_ns, tc.increment_ns);
    if (tc.mode === "fischer") credit = tc.increment_ns;
    const o = sideOf(b, presser);
    const own = sideClock(
      o.remaining_ns + credit, o.consumed_ns, o.credited_ns + credit, o.adjusted_ns);
    return replace(withSide(b, presser, own), { on_move: other(presser), since_ns: t, move_ns: 0n });
  }

  /* The one transition function; throws ClockError for an event that cannot have happened. */
  function applyEvent(state, e, tc) {
    const before = boardOf(state, e.board);
    let b = settle(before, e.t_ns, tc);
    const flaggedNow = b.flagged !== null && before.flagged === null;
    if (e.kind === "flag") {
      if (!flaggedNow || b.flag_ns !== e.t_ns || b.flagged !== e.side) {
        throw new ClockError(`board ${e.board}: no flag of ${e.side} falls at ${e.t_ns} ns`);
      }
      return withBoard(state, e.board, b);
    }
    if (flaggedNow) {
      throw new ClockError(`board ${e.board}: the log misses the flag at ${b.flag_ns} ns`);
    }
    const problem = refusal(b, e);
    if (problem !== null) throw new ClockError(`board ${e.board}: ${problem}`);
    switch (e.kind) {
      case "first-mover": // a new game's first move: no delay used, nothing credited
        b = replace(b, { on_move: e.side, move_ns: 0n });
        break;
      case "start":
      case "resume":
        b = replace(b, { phase: "running", since_ns: e.t_ns });
        break;
      case "press":
        b = press(b, e.t_ns, tc);
        break;
      case "pause":
        b = replace(b, { phase: "paused" });
        break;
      case "stop":
        b = replace(b, { phase: "stopped" });
        break;
      case "adjust": {
        const o = sideOf(b, e.side), value = e.value;
        const adjusted = o.adjusted_ns + value - o.remaining_ns;
        b = withSide(b, e.side, sideClock(value, o.consumed_ns, o.credited_ns, adjusted));
        if (b.flagged === e.side && value > 0n) b = replace(b, { flagged: null, flag_ns: null });
        break;
      }
      case "reset":
        b = freshBoard(tc);
        break;
      default: // checkpoint and restore only mark the log
        break;
    }
    return withBoard(state, e.board, b);
  }

  function replay(events, tc) {
    tc = timeControl(tc);
    let state = initialState(tc);
    for (const e of events) state = applyEvent(state, e, tc);
    return state;
  }

  /* The live clocks of one match: both boards, the event log and the time source (a function
   * returning BigInt ns). Every `now` argument is optional: undefined/null reads the source.
   * `boards` is the boards this clock runs: both (the domain's MatchClock) or the one board a
   * phone times; start, pause-all, flags and restore then concern that board alone, and its
   * log equals the domain's log of that board. */
  class MatchClock {
    constructor(tc, source, boards = BOARDS) {
      this.timeControl = timeControl(tc);
      if (this.timeControl.problems.length) {
        throw new ClockError(this.timeControl.problems.join("; "));
      }
      if (!boards.length || boards.some((n) => !BOARDS.includes(n))) {
        throw new ClockError(`there is no board ${boards}`);
      }
      this.boards = BOARDS.filter((n) => boards.includes(n));
      this._source = source;
      this._state = initialState(this.timeControl);
      this._events = [];
      this._floor = null;
    }

    /* Reopen a match from its log: replay it, pause each running board at its own last
     * logged instant (the log need not be in time order across boards), and log `restore` at
     * `now` (a new monotonic base). */
    static restore(events, tc, source, now, boards = BOARDS) {
      const clock = new MatchClock(tc, source, boards);
      for (const e of events) clock._record(e);
      if (clock._events.length) {
        for (const n of clock.boards) {
          const b = boardOf(clock._state, n);
          if (b.phase === "running") clock._record(event("pause", b.since_ns, n));
        }
        const t = clock._time(now);
        for (const n of clock.boards) clock._record(event("restore", t, n));
        clock._floor = t;
      }
      return clock;
    }

    get state() { return this._state; }
    get events() { return this._events.slice(); }
    get eventCount() { return this._events.length; }
    eventsSince(index) { return this._events.slice(index); }

    setFirstMover(board, side, now) {
      this._try(event("first-mover", this._begin(now), board, side), true);
    }

    start(now) {
      const t = this._begin(now);
      const ready = this.boards.filter((n) => boardOf(this._state, n).phase === "ready");
      if (!ready.length) throw new ClockError("no clock is waiting to start");
      for (const n of ready) {
        if (boardOf(this._state, n).on_move === null) {
          throw new ClockError(`set the first mover of board ${n} before starting`);
        }
      }
      for (const n of ready) {
        this._try(event("start", t, n, boardOf(this._state, n).on_move), true);
      }
      this._logFlags(t);
    }

    press(board, side, now) {
      const t = this._begin(now);
      const accepted = this._try(event("press", t, board, side));
      this._logFlags(t);
      return accepted;
    }

    pause(board, now) {
      if (board !== undefined && board !== null) return this._each("pause", board, now);
      const t = this._begin(now);  // pause-all: the running boards only, never a flagged one
      const running = this.boards.filter((n) => boardOf(this._state, n).phase === "running");
      const accepted = running.map((n) => this._try(event("pause", t, n))).filter(Boolean);
      this._logFlags(t);
      return accepted.length > 0;
    }
    resume(board, now) { return this._each("resume", board, now); }

    /* RULES §10, between two games of an individual match: the match clock was paused when
     * the game was recorded (both reserves kept, never reset); `side` taps to start the next
     * game with its opponent on move. Logged as that first mover and a resume (the domain's
     * `start_game`), so nobody is credited an increment or a refund for a move not played. */
    startGame(board, side, now) {
      const t = this._begin(now);
      const accepted = this._try(event("first-mover", t, board, other(side)));
      if (accepted) this._try(event("resume", t, board), true);
      this._logFlags(t);
      return accepted;
    }
    stop(board, now) { return this._each("stop", board, now); }
    reset(board, now) { this._each("reset", board, now); }
    checkpoint(now) { return this._each("checkpoint", null, now); }

    adjust(board, side, remainingNs, now) {
      const t = this._begin(now);
      this._try(event("adjust", t, board, side, remainingNs), true);
    }

    checkFlags(now) {
      const count = this._events.length;
      this._begin(now);
      return this.eventsSince(count);
    }

    boardAt(board, now) {
      return settle(boardOf(this._state, board), this._time(now), this.timeControl);
    }

    remainingNs(board, side, now) { return sideOf(this.boardAt(board, now), side).remaining_ns; }

    runningSide(board, now) {
      const b = this.boardAt(board, now);
      return b.phase === "running" ? b.on_move : null;
    }

    isPaused(board) { return boardOf(this._state, board).phase === "paused"; }
    flaggedSide(board, now) { return this.boardAt(board, now).flagged; }
    flagNs(board, now) { return this.boardAt(board, now).flag_ns; }

    delayRemainingNs(board, now) {
      const b = this.boardAt(board, now);
      if (this.timeControl.mode === "fischer" || b.phase === "stopped") return 0n;
      return maxBig(0n, this.timeControl.increment_ns - b.move_ns);
    }

    _time(now) {
      const t = now === undefined || now === null ? this._source() : now;
      if (!isInt(t)) throw new ClockError(`a clock time must be integer nanoseconds, not ${t}`);
      return t;
    }

    _begin(now) {
      const t = this._time(now);
      if (this._floor !== null && t < this._floor) {
        throw new ClockError(`time went backwards: ${t} ns is before ${this._floor} ns`);
      }
      this._floor = t;
      this._logFlags(t);
      return t;
    }

    _logFlags(t) {
      const due = [];
      for (const n of this.boards) {
        const b = boardOf(this._state, n);
        const at = flagAt(b, this.timeControl);
        if (at !== null && at <= t && b.on_move !== null) due.push([at, n, b.on_move]);
      }
      due.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
      for (const [at, n, side] of due) this._record(event("flag", at, n, side));
    }

    _record(e) {
      this._state = applyEvent(this._state, e, this.timeControl);
      this._events.push(e);
    }

    _try(e, strict = false) {
      const problem = refusal(boardOf(this._state, e.board), e);
      if (problem !== null && strict) throw new ClockError(`board ${e.board}: ${problem}`);
      if (problem === null) this._record(e);
      return problem === null;
    }

    _each(kind, board, now) {
      const t = this._begin(now);
      const boards = board === undefined || board === null ? this.boards : [board];
      const accepted = boards.map((n) => this._try(event(kind, t, n))).filter(Boolean).length > 0;
      this._logFlags(t);
      return accepted;
    }
  }

  /* m:ss (h:mm:ss from an hour), tenths below 20 s, always rounded down; "0:00.0" at zero. */
  function formatRemaining(ns) {
    ns = maxBig(ns, 0n);
    const two = (x) => x.toString().padStart(2, "0");
    if (ns < TENTHS_BELOW_NS) {
      const tenths = ns / (NS_PER_SECOND / 10n);
      return `0:${two(tenths / 10n)}.${tenths % 10n}`;
    }
    const total = ns / NS_PER_SECOND;
    const hours = total / 3600n, rest = total % 3600n;
    const minutes = rest / 60n, seconds = rest % 60n;
    return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
  }

  /* A touch or pointer event's own timestamp (ms, from the page's monotonic clock) as integer
   * nanoseconds: rounded to whole microseconds first, the finest a browser reports. */
  function nsFromTimeStamp(ms) {
    return BigInt(Math.round(ms * 1000)) * 1000n;
  }

  root.ClockEngine = Object.freeze({
    NS_PER_SECOND, BOARDS, SIDES, ClockError, MatchClock, applyEvent, replay, initialState,
    freshBoard, event, eventToWire, eventFromWire, formatRemaining, nsFromTimeStamp,
    timeControl, other,
  });
})(typeof window !== "undefined" ? window : globalThis);
