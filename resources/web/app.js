// Tandem Director – the players' pages. Every name reaches the screen as text (textContent),
// never as markup. Live data comes by Server-Sent Events from /events; a page that lost the
// connection is brought up to date by the first message after it reconnects.
"use strict";

const page = document.body.dataset.page;
const main = document.getElementById("main");
const live = document.getElementById("live");
const store = {
  get(key, fallback) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); }
    catch (e) { return fallback; }
  },
  set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* full */ } },
};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// "1 slip", "3 slips": the pages' twin of counted() in director/domain/wording.py
function counted(count, noun, plural) { return `${count} ${count === 1 ? noun : plural || `${noun}s`}`; }

function show(...nodes) { main.replaceChildren(...nodes.flat(2).filter((n) => n !== null && n !== undefined)); }

function randomId() {  // 128 random bits; crypto.randomUUID needs https, getRandomValues does not
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const device = store.get("tandem.device", null) || randomId();
store.set("tandem.device", device);

async function getJSON(url) {
  const response = await fetch(url, { cache: "no-store" });
  const data = await response.json().catch(() => null);
  // a 2xx cut off mid-body (the server died while it answered) is no answer: as when offline
  if (response.ok && data === null) throw new Error("the server's answer was cut off");
  if (!response.ok) throw Object.assign(new Error((data && data.error) || response.statusText), { status: response.status, data });
  return data;
}

// --- push ----------------------------------------------------------------------------------

function subscribe(channels, handler) {
  const query = channels.map((c) => "ch=" + encodeURIComponent(c)).join("&");
  let source = null;
  let wait = 0;  // the backoff before the next try once the browser gave up on the stream
  let timer = null;
  // a stream refused (429, 503) or gone is closed for good by the browser: the page reads the
  // same channels once from /api/latest and tries the stream again later, waiting longer each time
  const fallBack = async () => {
    try {
      const latest = await getJSON(`/api/latest?${query}`);
      for (const channel of channels) if (channel in latest) handler(channel, latest[channel]);
    } catch (e) { /* no connection at all: the next try reads again */ }
    wait = Math.min(60000, wait ? wait * 2 : 2000);
    clearTimeout(timer);
    timer = setTimeout(open, wait * (0.75 + Math.random() / 2));  // not all phones at once
  };
  const open = () => {
    if (source) source.close();
    source = new EventSource(`/events?${query}`);
    source.onopen = () => { wait = 0; live.textContent = "● live"; live.className = "live on"; };
    source.onerror = () => {
      live.textContent = "reconnecting…"; live.className = "live off";
      if (source.readyState === EventSource.CLOSED) fallBack();
    };
    for (const channel of channels) {
      source.addEventListener(channel, (event) => handler(channel, JSON.parse(event.data)));
    }
  };
  open();
  window.addEventListener("online", open);  // back on Wi-Fi: at once, not at the next retry
  return () => { clearTimeout(timer); if (source) source.close(); };
}

// --- pieces --------------------------------------------------------------------------------

function teamName(team) { return team ? team.name : "bye"; }

// A name set inside other words, kept apart from them for the bidirectional algorithm (FSI …
// PDI): "finished: فريق القاهرة wins" keeps "wins" after the name. The twin of isolated() in
// director/domain/wording.py.
function isolated(name) { return /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/.test(name) ? `\u2068${name}\u2069` : name; }

function sideBlock(match, side) {
  const team = side === "A" ? match.team_a : match.team_b;
  if (!team) return el("div", { class: "side" }, el("span", { class: "team" }, "bye"));
  const away = match.away ? el("span", { class: "away" }, ` ${match.away[side]}-away`) : null;
  return el("div", { class: "side" },
    el("span", { class: "team" }, isolated(team.name), away),
    el("span", { class: "score", "data-side": side }, match.bye ? "" : match.score[side]),
    el("span", { class: "players" }, team.players.map(isolated).join(" · ")));
}

function statusText(match) {
  if (match.bye) return "bye";
  if (match.forfeit_by) return `forfeit by ${isolated(teamName(match.forfeit_by === "A" ? match.team_a : match.team_b))}`;
  if (match.status === "finished") {
    if (match.result === "draw") return "finished: draw";
    return `finished: ${isolated(teamName(match.result === "A" ? match.team_a : match.team_b))} wins`;
  }
  const unit = `${match.unit || "pair"} ${match.pair}`;  // a pair of games, or one game (RULES §10)
  if (match.status === "in progress") return unit;
  return match.clocks_started ? `${unit}: clocks running` : "not started";
}

function matchCard(match, mine) {
  return el("a", { href: `/match/${match.id}`, class: "plain" },
    el("article", { class: "card" + (mine ? " mine" : ""), "data-match": match.id },
      el("div", { class: "top" },
        el("span", {}, `Table ${match.table}`),
        el("span", { class: match.status === "finished" ? "status-finished" : "" },
          match.one_cube_pair ? el("span", { class: "badge", title: match.cube_rule }, "one cube") : null,
          match.crawford ? el("span", { class: "badge", title: match.cube_rule }, "Crawford") : null,
          " ", statusText(match))),
      sideBlock(match, "A"),
      match.bye ? null : sideBlock(match, "B")));
}

function roundTitle(data) {
  if (!data.round) return "No round is paired yet";
  const of = data.rounds ? ` of ${data.rounds}` : "";
  return `Round ${data.round}${of} · matches to ${data.match_length} · ${data.status}`;
}

function setEvent(name) {
  if (name) { document.getElementById("event-name").textContent = name; }
}

// who enters the event, "team" or "player" (#28): the words of the find-me page and its link
let entrant = "team";
const entrantWatchers = [];
function setEntrant(who) {
  entrant = who === "player" ? "player" : "team";
  const link = document.querySelector('nav a[href="/team"]');
  if (link) link.textContent = entrant === "team" ? "My team" : "Find me";
  entrantWatchers.forEach((f) => f());
}
function entrantHead(data) { return data.entrant === "player" ? "Player" : "Team"; }

function findText() { return (store.get("tandem.find", "") || "").trim(); }

function matchesTeam(match, text) {
  const needle = text.toLocaleLowerCase();
  return [match.team_a, match.team_b].some((t) => t && [t.name, ...t.players]
    .some((n) => n.toLocaleLowerCase().includes(needle)));
}

// --- pages ---------------------------------------------------------------------------------

function pairingsPage() {
  subscribe(["pairings"], (_c, data) => {
    setEvent(data.event);
    const text = findText();
    show(el("h2", {}, roundTitle(data)),
      el("div", { class: "cards" }, data.matches.map((m) => matchCard(m, text && matchesTeam(m, text)))));
  });
}

function teamPage() {
  let pairings = null, standings = null;
  const input = el("input", { type: "search", id: "find", placeholder: "team or player name",
    value: findText(), autocomplete: "off", "aria-label": "Find my team" });
  const label = el("label", { class: "label", for: "find" }, "Find my team");
  const result = el("div", { id: "found" });
  const draw = () => {
    const team = entrant === "team";
    label.textContent = team ? "Find my team" : "Find me";
    input.placeholder = team ? "team or player name" : "your name";
    input.setAttribute("aria-label", label.textContent);
    const text = input.value.trim();
    store.set("tandem.find", text);
    if (!text) { result.replaceChildren(el("p", { class: "muted" }, team ? "Type your team's name or a player's name." : "Type your name.")); return; }
    const nodes = [];
    const found = pairings ? pairings.matches.filter((m) => matchesTeam(m, text)) : [];
    if (pairings && !found.length) nodes.push(el("p", { class: "muted" }, "No table this round for that name."));
    for (const m of found) nodes.push(el("h2", {}, `Round ${m.round}: table ${m.table}`), matchCard(m, true));
    if (standings) {
      const needle = text.toLocaleLowerCase();
      for (const row of standings.rows.filter((r) => r.team.toLocaleLowerCase().includes(needle))) {
        nodes.push(el("p", {}, el("strong", {}, row.team), `: place ${row.rank} in the standings, ${row.match_points} match point${row.match_points === 1 ? "" : "s"}.`));
      }
    }
    result.replaceChildren(...nodes);
  };
  input.addEventListener("input", draw);
  entrantWatchers.push(draw);
  draw();
  show(el("div", { class: "field" }, label, input,
    el("p", { class: "note" }, "This phone remembers what you type here; your table is framed on the pairings.")), result);
  subscribe(["pairings", "standings"], (channel, data) => {
    if (channel === "pairings") { pairings = data; setEvent(data.event); } else { standings = data; }
    draw();
  });
}

// a knockout's brackets (RULES §11): each round a column of boxes, my next match on top
function bracketBox(m, mine) {
  const line = (p, i) => {
    // nobody there (a bye, or a player not known yet) is told by the missing player, never by
    // a name, and set apart from any player called "bye" or "…"
    if (!p) return el("div", { class: "nobody" }, m.bye ? "bye" : "…");
    const won = m.winner !== null && p.id === m.winner;
    const score = m.score ? (m.forfeit ? (won ? " +" : "") : ` ${m.score[i]}`) : "";
    return el("div", { class: won ? "won" : "" }, isolated(p.name), score);
  };
  return el("article", { class: "card box" + (mine ? " mine" : ""), "data-bracket-match": m.number },
    line(m.players[0], 0), line(m.players[1], 1),
    m.table && m.status !== "done" ? el("div", { class: "note" }, `table ${m.table}`) : null);
}

function placesLine(places) {
  const parts = [];
  if (places.winner) parts.push(`1 ${isolated(places.winner.name)}`);
  if (places.runner_up) parts.push(`2 ${isolated(places.runner_up.name)}`);
  const third = places.third.length > 1 ? "3=" : "3";
  for (const p of places.third) parts.push(`${third} ${isolated(p.name)}`);
  if (places.fourth) parts.push(`4 ${isolated(places.fourth.name)}`);
  return parts.length ? el("p", { class: "places" }, parts.join(" · ")) : null;
}

function nextMatchText(n) {
  if (!n.match) return "Nothing more to play.";
  const where = n.table ? `, table ${n.table}` : "";
  const against = n.opponent ? ` against ${isolated(n.opponent)}` : " (opponent not known yet)";
  const when = n.ready ? (n.table ? "now" : "next, when the director pairs it") : "when the matches before it are over";
  // who meets a loser there is named only once known: else the slot may still turn into a bye
  const there = n.if_lost_opponent ? ` against ${isolated(n.if_lost_opponent)}` : " (opponent to be decided, maybe a bye)";
  const lost = n.if_lost ? ` If you lose: ${n.if_lost}${there}.` : " A loss ends your night.";
  return `Next: ${n.match}${where}${against}, ${when}.${lost}`;
}

function bracketsPage() {
  const input = el("input", { type: "search", id: "find", placeholder: "your name", value: findText(),
    autocomplete: "off", "aria-label": "Find me" });
  const result = el("div", { id: "brackets" });
  let data = null;
  const draw = () => {
    const text = input.value.trim();
    store.set("tandem.find", text);
    if (!data) return;
    if (!data.knockout) { result.replaceChildren(el("p", { class: "muted" }, "This event is not a knockout: it has no brackets.")); return; }
    const needle = text.toLocaleLowerCase();
    const me = text ? data.entrants.filter((e) => e.name.toLocaleLowerCase().includes(needle)) : [];
    const mine = new Set(me.map((e) => e.id));
    const nodes = me.map((e) => el("p", { class: "next", "data-entrant": e.id }, el("strong", {}, isolated(e.name)), ": ", nextMatchText(e.next)));
    if (data.note) nodes.push(el("p", { class: "muted" }, data.note));
    for (const b of data.brackets) {
      nodes.push(el("h2", {}, `${b.name[0].toUpperCase()}${b.name.slice(1).replace("-", " ")} bracket`));
      nodes.push(el("div", { class: "bracket" }, b.rounds.map((r) => el("section", { class: "column" },
        el("h3", {}, `${r.title} · to ${r.length}`),
        r.matches.filter((m) => m.status !== "empty").map((m) => bracketBox(m, m.players.some((p) => p && mine.has(p.id))))))));
      nodes.push(placesLine(b.places));
    }
    result.replaceChildren(...nodes.filter((n) => n !== null));
  };
  input.addEventListener("input", draw);
  show(el("div", { class: "field" }, el("label", { class: "label", for: "find" }, "Find me"), input,
    el("p", { class: "note" }, "Your next match, and where you go if you lose it.")), result);
  subscribe(["brackets"], (_c, d) => { data = d; setEvent(d.event); draw(); });
}

// short column heads for a phone's width; the definitions below the table name each in full
const SHORT = { buchholz: "Buch", points_difference: "Diff", points_for: "For", head_to_head: "H2H", seed: "Seed" };

function standingsPage() {
  subscribe(["standings"], (_c, data) => {
    const heads = ["#", entrantHead(data), "MP", ...data.tie_breaks.map((t) => SHORT[t.key] || t.name), "Pl"];
    const rows = data.rows.map((r) => el("tr", {},
      el("td", {}, r.place), el("td", { class: "name" }, r.team), el("td", {}, r.match_points),
      data.tie_breaks.map((t) => el("td", {}, r[t.key] === null || r[t.key] === undefined ? "" : r[t.key])),
      el("td", {}, r.games_played)));
    const defs = Object.entries(data.definitions).map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]);
    show(el("h2", {}, data.through_round ? `Standings ${data.heading}` : "Standings"),
      el("div", { class: "scroll" }, el("table", { id: "standings" },
        el("thead", {}, el("tr", {}, heads.map((h, i) => el("th", { class: i === 1 ? "name" : "" }, h)))),
        el("tbody", {}, rows))),
      el("p", { class: "note" }, "MP match points, Pl matches played; " +
        data.tie_breaks.map((t) => `${SHORT[t.key] || t.name} ${t.name}`).join(", ") + "."),
      el("h2", {}, "How ties are broken"), el("dl", {}, defs));
  });
}

function crosstablePage() {
  subscribe(["crosstable"], (_c, data) => {
    const heads = ["#", entrantHead(data), ...data.rounds.map((r) => `R${r}`), "MP"];
    const rows = data.rows.map((row) => el("tr", {},
      el("td", {}, row.rank), el("td", { class: "name" }, row.team),
      data.rounds.map((r) => {
        const c = row.rounds[String(r)];
        if (!c) return el("td", {}, "");
        const vs = c.opponent === null ? "bye" : `${c.result}${c.opponent_rank ?? ""}`;
        return el("td", { title: c.opponent || "bye" }, vs, el("div", { class: "note" }, c.opponent === null ? "" : `${c.for}-${c.against}`));
      }),
      el("td", {}, row.match_points)));
    show(el("h2", {}, "Crosstable"),
      el("p", { class: "note" }, `${data.legend || "W win, D draw, L loss"}, + / − forfeit, ? not finished yet, then the opponent's place; below it the game points.`),
      el("div", { class: "scroll" }, el("table", { id: "crosstable" },
        el("thead", {}, el("tr", {}, heads.map((h, i) => el("th", { class: i === 1 ? "name" : "" }, h)))),
        el("tbody", {}, rows))));
  });
}

async function metPage() {
  subscribe(["pairings"], (_c, data) => setEvent(data.event));
  const event = await getJSON("/api/event");
  if (event.met === false) { // RULES §9's table models pairs: an individual match has none (§10)
    show(el("h2", {}, "Match equity"),
      el("p", { id: "no-met" }, "This event has no match equity table: the one in the rule book (§9) is for Tandem matches."));
    return;
  }
  const data = await getJSON("/api/met");
  const n = data.size;
  const head = el("tr", {}, el("th", {}, "need"), Array.from({ length: n }, (_, j) => el("th", {}, j + 1)));
  const rows = data.table.map((row, i) => el("tr", {}, el("th", {}, i + 1), row.map((x) => el("td", {}, (x * 100).toFixed(1)))));
  show(el("h2", {}, "Tandem match equity table (%)"),
    el("div", { class: "scroll" }, el("table", { id: "met" }, el("thead", {}, head), el("tbody", {}, rows))),
    el("p", { class: "note" }, data.model));
}

function rulesPage() {
  subscribe(["rules"], (_c, data) => {
    setEvent(data.event);
    const where = [data.venue, data.date].filter(Boolean).join(" · ");
    show(el("h2", {}, "The rules of this event"), where ? el("p", { class: "muted" }, where) : null,
      el("ul", {}, data.lines.map((line) => el("li", {}, line))),
      el("h2", {}, "Tie-breaks"),
      el("dl", {}, data.tie_breaks.map((t) => [el("dt", {}, t.name), el("dd", {}, t.definition)])));
  });
}

function matchPage() {
  const id = Number(location.pathname.split("/").pop());
  subscribe([`match:${id}`], (_c, m) => {
    const names = { A: teamName(m.team_a), B: teamName(m.team_b) };
    const boards = !m.boards || m.boards.length > 1; // one board: game after game (RULES §10)
    const rows = m.games_list.map((g) => el("tr", {},
      el("td", {}, g.pair), boards ? el("td", {}, g.board) : null, el("td", { class: "name" }, names[g.winner]),
      el("td", { class: "name" }, [g.end, g.level || g.agreed_level].filter(Boolean).join(", ")),
      el("td", {}, g.cube), el("td", {}, g.counted ? g.points : "–"),
      el("td", {}, `${g.score.A}-${g.score.B}`)));
    show(el("h2", {}, `Round ${m.round}, table ${m.table}`), matchCard(m, false),
      el("div", { class: "scroll" }, el("table", {},
        el("thead", {}, el("tr", {}, [m.unit || "pair", ...(boards ? ["board"] : []), "winner", "how", "cube", "points", "score"].map((h) => el("th", {}, h)))),
        el("tbody", {}, rows))));
  });
}

// --- result slips --------------------------------------------------------------------------
// A slip waits in this phone's outbox (localStorage) until the server has answered it: sent
// again after a lost connection, the same slip id makes it the same slip at the desk.

const OUTBOX = "tandem.outbox";

function outbox() { return store.get(OUTBOX, []); }

async function flushOutbox(onAnswer) {
  for (const item of outbox()) {
    let response;
    try {
      response = await fetch(item.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(item.body) });
    } catch (e) {
      return false;  // offline: keep everything, try again later
    }
    if (response.status >= 500 || response.status === 429) return false;
    let data = await response.json().catch(() => null);
    if (response.ok && data === null) return false;  // cut off: kept, its uid makes a resend harmless
    data = data || {};
    store.set(OUTBOX, outbox().filter((o) => o.body.uid !== item.body.uid || o.url !== item.url));
    onAnswer(item, response.ok, data);
  }
  return true;
}

function slipPage() {
  const token = decodeURIComponent(location.pathname.split("/").pop());
  let state = null;
  let message = null;
  let keptForm = null;
  const api = `/api/slip/${encodeURIComponent(token)}`;

  const send = async (url, body) => {
    const list = outbox();
    list.push({ url, body });
    store.set(OUTBOX, list);
    draw();
    await retry();
  };
  const retry = async () => {
    const done = await flushOutbox((_item, ok, data) => {
      message = ok ? { ok: true, text: `Sent: ${data.slip.description} – ${data.slip.status}` }
        : { ok: false, text: data.error || "refused" };
    });
    if (!done) message = { ok: false, text: "Not sent yet: no connection to the desk. This phone keeps the slip and sends it again." };
    await load();
  };
  // each push asks again, and the answers may come back out of order: only an answer asked
  // for after the one shown replaces it (an older one would bring back a finished form)
  let asked = 0;
  let shown = 0;
  const load = async () => {
    const n = ++asked;
    try {
      const answer = await getJSON(`${api}?device=${device}`);
      if (n < shown) return;
      shown = n;
      state = answer;
      setEvent(null);
    } catch (e) {
      if (n < shown) return;
      if (e.status) { shown = n; state = null; message = { ok: false, text: e.message }; }
    }
    draw();
  };

  const choice = (name, options, value, disabled) => el("div", { class: "choices", role: "radiogroup" },
    options.map(([v, label, off]) => el("label", {}, el("input", { type: "radio", name, value: v, checked: String(v) === String(value), disabled: disabled || off }), label)));

  const form = (match, f, side) => {
    const names = { A: teamName(match.team_a), B: teamName(match.team_b) };
    const open = f.boards.filter((b) => !f.boards_done.includes(b));
    const oneBoard = f.boards.length === 1;  // an individual match: game after game (RULES §10)
    // one board whose cube is dead (the Crawford game): no double to pass, the cube stays at 1
    const deadCube = oneBoard && !f.cube[String(open[0])].allowed;
    // a phone clock's flag links here with RULES §5's proposal: ?board=N&end=time&winner=S…
    const pre = Object.fromEntries(new URLSearchParams(location.search));
    const node = el("form", { id: "slip-form" });
    const fields = el("div", {});
    const numbers = { loser_borne_off: "Checkers the flagged player had borne off", winner_left: "Winner's checkers not borne off",
      loser_left: "Loser's checkers not borne off", loser_home: "Loser's checkers in their home board",
      loser_outfield: "Loser's checkers in the outfield", loser_in_winner_home_or_bar: "Loser's checkers in the winner's home board or on the bar",
      loser_pips: "Loser's pip count" };
    const redraw = () => {
      const data = new FormData(node);
      const end = data.get("end") || "bear-off";
      const board = data.get("board") || open[0];
      const need = f.fields[end] || [];
      const parts = [];
      if (need.includes("level")) parts.push(el("div", { class: "field" }, el("span", { class: "label" }, end === "resign" ? "Level conceded" : "Level"),
        choice("level", [["single", "single"], ["gammon", "gammon"], ["backgammon", "backgammon"]], data.get("level") || "single")));
      if (f.has_cube) {
        const reason = f.cube[String(board)].allowed ? "" : f.cube[String(board)].reason;
        parts.push(el("div", { class: "field" }, el("label", { class: "label", for: "cube" }, end === "pass" ? "Cube before the refused double" : "Cube"),
          el("select", { id: "cube", name: "cube" }, (deadCube ? [1] : [1, 2, 4, 8, 16, 32, 64]).map((v) => el("option", { value: v, selected: String(v) === (data.get("cube") || "1") }, v))),
          reason ? el("p", { class: "note" }, oneBoard ? reason : `Board ${board}: ${reason}`) : null));
      }
      for (const key of need.filter((k) => numbers[k])) {
        parts.push(el("div", { class: "field" }, el("label", { class: "label", for: key }, numbers[key]),
          el("input", { type: "number", id: key, name: key, min: 0, max: key === "loser_pips" ? 375 : 15, inputmode: "numeric", value: data.get(key) || pre[key] || "" })));
      }
      if (f.agreed_level[end]) parts.push(el("div", { class: "field" }, el("span", { class: "label" }, "Agreed lower forfeit (rule 5′)"),
        choice("agreed_level", [["", "none"], ["gammon", "gammon"], ["single", "single"]], data.get("agreed_level") || "")));
      fields.replaceChildren(...parts);
    };
    node.append(
      ...(oneBoard ? [] : [el("div", { class: "field" }, el("span", { class: "label" }, "Board"), choice("board", f.boards.map((b) => [b, `Board ${b}`, !open.includes(b)]), open.includes(Number(pre.board)) ? pre.board : open[0]))]),
      el("div", { class: "field" }, el("span", { class: "label" }, "Winner"), choice("winner", [["A", names.A], ["B", names.B]], pre.winner || side)),
      el("div", { class: "field" }, el("span", { class: "label" }, "How it ended"),
        choice("end", [["bear-off", "borne off"], ["pass", "double passed", !f.has_cube || deadCube], ["resign", "resigned"], ["time", "time"]], pre.end || "bear-off")),
      fields,
      el("button", { type: "submit", id: "send-slip" }, `Send to the other ${f.entrant} for confirmation`));
    node.addEventListener("change", redraw);
    node.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(node);
      const end = data.get("end");
      const game = { pair: match.pair, board: Number(data.get("board") || open[0]), winner: data.get("winner"), end, cube: Number(data.get("cube") || 1) };
      for (const key of f.fields[end] || []) {
        const value = data.get(key);
        if (value === null || value === "") continue;
        game[key] = key === "level" ? value : Number(value);
      }
      if (data.get("agreed_level")) game.agreed_level = data.get("agreed_level");
      keptForm = null;  // sent: the next game starts from a fresh form
      send(api, { uid: randomId(), device, game });
    });
    redraw();
    return node;
  };

  const slipCard = (s, side) => {
    const theirs = s.entered_by !== side;
    const act = (agree) => send(`${api}/answer`, { uid: s.uid, device, agree, reason: agree ? "" : "disputed at the table" });
    const buttons = s.status === "unconfirmed" ? el("div", { class: "row" },
      theirs ? el("button", { type: "button", class: "confirm", onclick: () => act(true) }, "Confirm") : null,
      el("button", { type: "button", class: "secondary", onclick: () => act(false) }, theirs ? "Dispute" : "Withdraw")) : null;
    const cls = { accepted: "ok", pending: "ok", refused: "error", disputed: "error", withdrawn: "muted", unconfirmed: "warn" }[s.status];
    const words = { unconfirmed: theirs ? "waiting for your confirmation" : `waiting for the other ${state.form.entrant}`, pending: "confirmed: waiting for the director",
      accepted: "recorded by the director", refused: "refused", disputed: "disputed", withdrawn: "withdrawn" }[s.status];
    return el("article", { class: "card slip", "data-slip": s.uid },
      el("div", {}, s.description), el("div", { class: cls }, words, s.reason ? `: ${s.reason}` : ""), buttons);
  };

  const draw = () => {
    const nodes = [];
    const waiting = outbox().filter((o) => o.url.startsWith(api)).length;
    if (message) nodes.push(el("p", { id: "slip-message", class: message.ok ? "ok" : "error", role: "alert" }, message.text));
    if (waiting) nodes.push(el("p", { class: "warn", id: "outbox" }, `${counted(waiting, "slip")} on this phone not yet at the desk – they are sent again automatically.`));
    if (!state) { show(...nodes); return; }
    const m = state.match;
    // each team has its own QR code: the server says whose this is (issue 26)
    const side = state.side;
    nodes.push(el("h2", {}, `Result slip · round ${m.round}, table ${m.table}`), matchCard(m, true));
    // this phone as a board's clock (issue 19): the same token opens it
    const boards = state.form.boards, entrant = state.form.entrant;
    nodes.push(el("p", { class: "row", id: "clock-links" }, boards.map((b) =>
      el("a", { href: `/clock/${encodeURIComponent(token)}/${b}`, id: `clock-${b}`, class: "button" }, boards.length === 1 ? "Match clock" : `Clock for board ${b}`))));
    nodes.push(el("p", { class: "note", id: "our-team" }, `This phone is ${isolated(teamName(side === "A" ? m.team_a : m.team_b))} (your ${entrant === "team" ? "team's" : "own"} QR code). `,
      `The other ${entrant} confirms your slips with theirs.`));
    for (const s of state.slips.filter((x) => x.status === "unconfirmed" || x.status === "pending")) nodes.push(slipCard(s, side));
    if (m.status !== "finished") {
      // a push redraws the page: the form the player is filling in is kept while it still fits
      const key = JSON.stringify([m.id, m.pair, state.form.boards_done, side]);
      if (!keptForm || keptForm.key !== key) keptForm = { key, node: form(m, state.form, side) };
      nodes.push(el("h2", {}, boards.length === 1 ? `Enter game ${m.pair}` : `Enter a finished game of pair ${m.pair}`), keptForm.node);
    }
    else nodes.push(el("p", { class: "ok" }, "The match is over."));
    const done = state.slips.filter((x) => !["unconfirmed", "pending"].includes(x.status));
    if (done.length) nodes.push(el("h2", {}, "Earlier slips"), done.map((s) => slipCard(s, side)));
    show(...nodes);
  };

  load().then(retry);
  setInterval(() => { if (outbox().length) retry(); }, 3000);
  window.addEventListener("online", retry);
  // the public match channel tells when a result is in; the slips channel only says "ask again"
  const matchId = () => (state ? state.match.id : null);
  const watch = setInterval(() => {
    if (!matchId()) return;
    clearInterval(watch);
    subscribe([`match:${matchId()}`, `slips:${matchId()}`], () => load());
  }, 200);
}

getJSON("/api/event").then((e) => {
  setEvent(e.event);
  setEntrant(e.entrant);
  const met = document.querySelector('nav a[href="/met"]'); // no table for an individual event
  if (met && e.met === false) met.hidden = true;
}).catch(() => {});

// the club's rating list and latest season (`serve --club`): names as text, nothing private
function clubPage() {
  const table = (id, heads, rows) => el("div", { class: "scroll" }, el("table", { id },
    el("thead", {}, el("tr", {}, heads.map((h, i) => el("th", { class: i === 1 ? "name" : "" }, h)))),
    el("tbody", {}, rows)));
  getJSON("/api/club").then((data) => {
    const ratings = data.ratings.map((r) => el("tr", {}, el("td", {}, r.place),
      el("td", { class: "name" }, r.name), el("td", {}, r.rating + (r.provisional ? "\u00a0P" : "")),
      el("td", {}, r.experience)));
    const parts = [el("h2", {}, "Club ratings"),
      data.ratings.length ? table("club-ratings", ["#", "Player", "Rating", "Exp"], ratings)
        : el("p", { class: "muted" }, "Nobody has played a rated match yet."),
      el("p", { class: "note" }, "P provisional (experience under 100); Exp experience.")];
    if (data.season) {
      const rows = data.season.rows.map((r) => el("tr", {}, el("td", {}, r.place),
        el("td", { class: "name" }, r.name), el("td", {}, r.points), el("td", {}, r.rating)));
      parts.push(el("h2", {}, `Season ${data.season.name}`),
        el("p", { class: "note" }, `${data.season.first} to ${data.season.last}`),
        table("club-season", ["#", "Player", "Points", "Rating"], rows));
    }
    show(parts);
  }).catch((e) => show(el("p", { class: "muted" },
    e.status === 404 ? "No club is served here." : `The club could not be read: ${e.message}`)));
}

// on a phone the navigation scrolls sideways: the page's own link is brought into view
const currentLink = document.querySelector("nav a[aria-current]");
if (currentLink) currentLink.scrollIntoView({ block: "nearest", inline: "nearest" });

const pages = { club: clubPage, pairings: pairingsPage, team: teamPage, standings: standingsPage, crosstable: crosstablePage,
  met: metPage, rules: rulesPage, match: matchPage, slip: slipPage, brackets: bracketsPage };
(pages[page] || pairingsPage)();
