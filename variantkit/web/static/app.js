// The playground page.  The server keeps no game: the page holds the
// variant's source, the start position and the moves played, and asks the
// server for everything else (board, legal moves, status) after each change.
// A game on two boards (bughouse) is drawn as both boards side by side, each
// a nested <svg data-pair-board="A">; there, cells, pieces in hand and moves
// are named with their board ("A:e2", "B:p", "A:e2e4"), and both boards run
// at once, each with its own side to move.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  source: null,      // {bundled: NAME} | {example: NAME} | {yaml: TEXT}
  chosen: null,      // the source picked in the list, before any edit
  pristine: "",      // its YAML text, to tell an edit from the original
  start: null,       // a position string, or null for the variant's setup
  moves: [],         // move strings, from the start
  ply: 0,            // how many of them the board shows
  selected: null,    // the selected cell
  dropping: null,    // the selected piece in hand: its letter as the hand shows it
  walling: null,     // a move whose wall is being placed, written without it: "e2e4"
  flip: false,
  pieceSet: "traditional",  // or "international": figures and letters for characters
  legal: [],         // legal moves of the shown position
  pieces: {},        // lower-case letter -> piece name
  turn: "white",
  pair: false,       // whether the variant is played on two boards
  turns: {},         // on two boards: each board's side to move, by its letter
  over: false,
  search: null,      // {id, key} of the running engine search
  notation: null,    // {source, style}: the move list's style picked for a source
};

let lastProblems = [];  // shown beside the editor's lines
let answered = 0;   // the newest request whose answer was shown
let requested = 0;

async function api(path, body, method) {
  // Every request but a GET is JSON: the server refuses any other (so that a
  // page of another site cannot make it compute).
  const options = {method: method || (body === undefined ? "GET" : "POST")};
  if (options.method !== "GET") options.headers = {"Content-Type": "application/json"};
  if (body !== undefined) options.body = JSON.stringify(body);
  try {
    const response = await fetch(path, options);
    return await response.json();
  } catch (error) {
    return {ok: false, problems: [{rule: "network", message: "the server does not answer"}]};
  }
}

function request(extra) {
  // The style picked applies to the source it was picked for; another
  // source's moves are written in that variant's own style.
  const picked = state.notation && state.notation.source === state.source
    ? {notation: state.notation.style} : {};
  return Object.assign({source: state.source, start: state.start, moves: state.moves,
                        ply: state.ply}, picked, extra || {});
}

// How the board is drawn: which way up, and which piece set.
function view(extra) {
  return Object.assign({flip: state.flip, pieces: state.pieceSet}, extra || {});
}

function positionKey() {
  return JSON.stringify([state.source, state.start, state.moves.slice(0, state.ply)]);
}

function problemText(p) {
  const where = p.line ? `line ${p.line}, column ${p.column}: ` : "";
  return `${where}${p.message} (${p.rule})`;
}

// -- the position -----------------------------------------------------------

async function refresh() {
  const mine = ++requested;
  let answer = await api("/api/position", request(view({select: state.selected,
                                                         drop: state.dropping,
                                                         wall: state.walling})));
  if (mine < answered) return;
  if (!answer.ok && state.moves.length && answer.problems.some(
      (p) => p.rule === "illegal-move" || p.rule === "bad-position")
      && "yaml" in state.source) {
    // An edit changed the rules under the moves played: start afresh.
    state.start = null;
    state.moves = [];
    state.ply = 0;
    letGo();
    answer = await api("/api/position", request(view()));
    if (mine < answered) return;
  }
  answered = mine;
  show(answer);
}

function show(answer) {
  const board = $("board");
  showProblems(answer.problems || []);
  if (!answer.ok) {
    board.dataset.state = "stale";
    const first = answer.problems[0];
    $("status").textContent = "yaml" in state.source && first && first.line
      ? `The file has problems: the board shows its last valid version`
      : problemText(first);
    return;
  }
  const active = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset : {};
  const focused = active.cell && named(document.activeElement, active.cell);
  const focusedHand = active.handPiece && named(document.activeElement, active.handPiece);
  state.legal = answer.legal;
  state.pieces = answer.pieces;
  state.pair = Boolean(answer.pair);
  state.turns = answer.turns || {};
  board.innerHTML = answer.svg;
  board.dataset.state = "ready";
  board.dataset.variant = answer.name;
  board.dataset.source = Object.keys(state.source)[0] === "yaml" ? "editor" : "file";
  board.dataset.pair = String(state.pair);
  const box = board.querySelector("svg").viewBox.baseVal;
  document.querySelector("main").classList.toggle(
    "wide", state.pair || box.width > 1.8 * box.height);
  decorateCells(board, focused);
  decorateHands(board, focusedHand);
  state.turn = answer.turn;
  state.over = answer.over;
  $("status").textContent = state.walling
    ? `${answer.status}: click a marked cell to place the wall (Escape cancels)`
    : answer.status;
  $("piece-set").hidden = !answer.piece_sets;
  $("fen").value = answer.fen;
  showNotations(answer.notations, answer.notation);
  showMoves(answer.moves);
}

// The styles the variant's players write moves in (its own first), as a
// list above the moves; hidden when there is only one.
function showNotations(styles, current) {
  let select = $("notation");
  if (!select) {
    select = document.createElement("select");
    select.id = "notation";
    select.dataset.testid = "notation";
    select.setAttribute("aria-label", "How moves are written");
    select.addEventListener("change", () => {
      state.notation = {source: state.source, style: select.value};
      refresh();
    });
    $("moves").before(select);
  }
  select.replaceChildren(...styles.map((style) => new Option(style, style)));
  select.value = current;
  select.hidden = styles.length < 2;
}

// A cell or a piece in hand as the page names it: on two boards, after the
// letter of the board drawn around it ("A:e2").
function named(element, name) {
  const drawing = element.closest && element.closest("[data-pair-board]");
  return drawing ? `${drawing.dataset.pairBoard}:${name}` : name;
}

function decorateCells(board, focused) {
  // Cells are buttons for the keyboard: Tab to one, Enter or Space to click.
  for (const cell of board.querySelectorAll("g.cells [data-cell]")) {
    const name = named(cell, cell.dataset.cell);
    const drawing = cell.closest("[data-pair-board]") || board;
    const piece = drawing.querySelector(
      `[data-piece][data-cell="${CSS.escape(cell.dataset.cell)}"]`);
    cell.setAttribute("tabindex", "0");
    cell.setAttribute("role", "button");
    const kind = state.walling && cell.dataset.mark === "drop" ? "wall" : cell.dataset.mark;
    const mark = kind && kind !== "last-move" ? `, ${kind}` : "";
    const where = state.pair ? `board ${name.replace(":", " ")}` : name;
    cell.setAttribute("aria-label",
      `${where}${piece ? ", " + pieceName(piece.dataset.piece) : ""}${mark}`);
    if (name === focused) cell.focus();
  }
}

function decorateHands(board, focused) {
  // The pieces in hand are buttons too: select one, then a marked cell drops it.
  for (const piece of board.querySelectorAll("[data-hand-piece]")) {
    const letter = named(piece, piece.dataset.handPiece);
    piece.setAttribute("tabindex", "0");
    piece.setAttribute("role", "button");
    piece.setAttribute("aria-pressed", String(letter === state.dropping));
    piece.setAttribute("aria-label",
      `${pieceName(letter)} in hand, ${piece.dataset.count} held`);
    if (letter === focused) piece.focus();
  }
}

function pieceName(named) {
  const letter = named.split(":").pop();  // a piece in a pair's hand: "B:p"
  const side = letter === letter.toUpperCase() ? "white" : "black";
  return `${side} ${state.pieces[letter.toLowerCase()] || letter}`;
}

function showMoves(texts) {
  const list = $("moves");
  list.replaceChildren();
  const offset = turnAtStart() === "white" ? 0 : 1;
  texts.forEach((text, i) => {
    const item = document.createElement("li");
    // A pair's moves come numbered by their board ("1A. e4", "1a. e5").
    const white = state.pair ? /^\d+[AB]\./.test(text) : (i + offset) % 2 === 0;
    item.className = white ? "white-move" : "black-move";
    if (!state.pair && (white || i === 0)) {
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${Math.floor((i + offset) / 2) + 1}.${white ? "" : ".."}`;
      item.append(number);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.ply = String(i + 1);
    button.textContent = text;
    if (i + 1 === state.ply) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => goTo(i + 1));
    item.append(button);
    list.append(item);
  });
}

function turnAtStart() {
  const parts = (state.start || "").split(" ");
  return parts[1] === "b" ? "black" : "white";
}

function showGutter(problems) {
  // One number a line (the text does not wrap), and a problem's line marked.
  const gutter = $("gutter");
  const count = $("yaml").value.split("\n").length;
  const marked = new Map();
  for (const p of problems || []) if (p.line && !marked.has(p.line)) marked.set(p.line, p);
  gutter.replaceChildren();
  for (let line = 1; line <= count; line++) {
    const row = document.createElement("div");
    row.textContent = String(line);
    row.dataset.line = String(line);
    const p = marked.get(line);
    if (p) {
      row.className = p.severity === "warning" ? "problem warning" : "problem";
      row.title = problemText(p);
    }
    gutter.append(row);
  }
  gutter.scrollTop = $("yaml").scrollTop;
}

function showProblems(problems) {
  lastProblems = problems;
  showGutter(problems);
  const list = $("problems");
  list.replaceChildren();
  for (const p of problems) {
    const item = document.createElement("li");
    item.className = p.severity === "warning" ? "warning" : "error";
    item.dataset.rule = p.rule;
    if (p.line) {
      item.dataset.line = p.line;
      item.dataset.column = p.column;
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = problemText(p);
      button.addEventListener("click", () => jumpTo(p.line, p.column));
      item.append(button);
    } else {
      item.textContent = problemText(p);
    }
    list.append(item);
  }
}

function jumpTo(line, column) {
  const editor = $("yaml");
  const lines = editor.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, (column || 1) - 1);
  editor.focus();
  editor.setSelectionRange(at, at);
}

// -- moving -----------------------------------------------------------------

function letGo() {
  state.selected = null;
  state.dropping = null;
  state.walling = null;
}

function onHand(letter) {
  // Only the side to move drops (on two boards, the side to move on the
  // piece's board: "B:p"); a second click lets go of the piece.
  const turn = state.pair ? state.turns[letter.split(":")[0]] : state.turn;
  const mine = state.legal.some((m) => m.drop === letter.toUpperCase())
    && (letter === letter.toUpperCase()) === (turn === "white");
  const again = letter === state.dropping;
  letGo();
  state.dropping = mine && !again ? letter : null;
  refresh();
}

// A move string without its wall: "e2e4" for "e2e4,e4e5".
function withoutWall(text) {
  return text.split(",")[0];
}

function onCell(name) {
  if (state.walling) {
    // The third click of a walled move: a marked cell places the wall,
    // any other cell lets go of the move.
    const placed = state.legal.find(
      (m) => m.wall === name && withoutWall(m.move) === state.walling);
    letGo();
    if (placed) { play(placed.move); return; }
  }
  if (state.dropping) {
    const drop = state.legal.filter(
      (m) => m.drop === state.dropping.toUpperCase() && m.to === name);
    state.dropping = null;
    if (drop.length) { play(drop[0].move); return; }
  }
  const from = state.selected;
  const candidates = from
    ? state.legal.filter((m) => !m.drop && m.from === from && m.to === name) : [];
  if (candidates.length) {
    chooseAndPlay(candidates);
    return;
  }
  const movable = state.legal.some((m) => !m.drop && m.from === name);
  // A drop whose piece is not picked from a hand (`from_hand`) is played
  // by a click on its cell.
  const drops = state.legal.filter((m) => m.drop && m.to === name && !m.from_hand);
  if (drops.length && !movable) {
    state.selected = null;
    chooseAndPlay(drops);
    return;
  }
  state.selected = movable && name !== from ? name : null;
  refresh();
}

// Plays one of `candidates` (legal moves with the same cells): the chooser
// picks among moves that differ otherwise (a promotion, a suborn or a swap, the piece
// dropped); a move with several cells for its wall waits for a third click.
async function chooseAndPlay(candidates) {
  const distinct = new Map();
  for (const m of candidates) {
    if (!distinct.has(withoutWall(m.move))) distinct.set(withoutWall(m.move), m);
  }
  const chosen = await choose([...distinct.values()]);
  if (!chosen) return;
  const base = withoutWall(chosen);
  const walls = candidates.filter((m) => withoutWall(m.move) === base);
  if (walls.length === 1) { play(walls[0].move); return; }
  letGo();
  state.walling = base;
  refresh();
}

function choose(candidates) {
  if (candidates.length === 1) return Promise.resolve(candidates[0].move);
  const dialog = $("chooser");
  const choices = $("choices");
  choices.replaceChildren();
  const promotes = candidates.some((m) => m.promotion);
  $("chooser-title").textContent = promotes ? "Promote to" : "Which move?";
  for (const m of candidates) {
    const button = document.createElement("button");
    button.value = m.move;
    button.dataset.move = m.move;
    button.textContent = m.promotion ? (state.pieces[m.promotion] || m.promotion)
      : m.drop ? (state.pieces[m.drop.toLowerCase()] || m.drop)
      : m.suborn ? "suborn" : m.swap ? "swap" : "move";
    choices.append(button);
  }
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue || null), {once: true});
    dialog.returnValue = "";
    dialog.showModal();
  });
}

function play(move) {
  stopSearch();
  state.moves = state.moves.slice(0, state.ply).concat([move]);
  state.ply = state.moves.length;
  letGo();
  return refresh().then(engineTurn);
}

function goTo(ply) {
  stopSearch();
  state.ply = ply;
  letGo();
  refresh();
}

function takeBack() {
  stopSearch();
  if (!state.ply) return;
  // Against the engine, take back to the player's own turn.
  let back = 1;
  const engine = $("engine-side").value;
  if (engine && !state.pair && state.ply >= 2 && state.turn !== engine) back = 2;
  state.ply -= back;
  state.moves = state.moves.slice(0, state.ply);
  letGo();
  refresh();
}

// -- the engine -------------------------------------------------------------

// On two boards the engine plays a team, named by its colour on board A
// (White on A with Black on B); it moves on the board of the last move, or
// on the first board where its team is to move.
function engineBoard(side) {
  const last = state.ply ? state.moves[state.ply - 1].split(":")[0] : null;
  const boards = last ? [last, ...["A", "B"].filter((b) => b !== last)] : ["A", "B"];
  const team = (board) => board === "A" ? state.turns[board]
    : (state.turns[board] === "white" ? "black" : "white");
  return boards.find((board) => !side || team(board) === side) || null;
}

function engineTurn() {
  const side = $("engine-side").value;
  if (!side || state.over) return;
  if (state.pair ? engineBoard(side) : side === state.turn) startSearch();
}

async function startSearch() {
  stopSearch();
  if (state.over) return;
  const limit = $("engine-limit").value;
  const amount = Number($("engine-amount").value) || 1;
  const key = positionKey();
  const info = $("engine-info");
  info.textContent = "thinking…";
  const board = state.pair ? {board: engineBoard($("engine-side").value) || "A"} : {};
  const answer = await api("/api/search", request(Object.assign({ply: undefined,
    moves: state.moves.slice(0, state.ply), [limit]: amount}, board)));
  if (!answer.ok) { info.textContent = problemText(answer.problems[0]); return; }
  if (key !== positionKey()) { api(`/api/search/${answer.id}`, undefined, "DELETE"); return; }
  state.search = {id: answer.id, key};
  pollSearch(state.search);
}

async function pollSearch(search) {
  while (state.search === search) {
    const answer = await api(`/api/search/${search.id}`);
    if (state.search !== search) return;
    const info = answer.info || {};
    if (info.depth) {
      $("engine-info").textContent =
        `depth ${info.depth} · ${info.score} · ${info.pv.join(" ")} · ${info.nodes} nodes`;
    }
    if (!answer.ok) { $("engine-info").textContent = problemText(answer.problems[0]); return; }
    if (answer.state === "done") {
      state.search = null;
      const result = answer.answer;
      if (!result.ok) { $("engine-info").textContent = problemText(result.problems[0]); return; }
      $("engine-info").textContent =
        `played ${result.text} · depth ${result.depth} · ${result.score} · ${result.pv.join(" ")}`;
      if (search.key === positionKey()) play(result.move);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function stopSearch() {
  if (!state.search) return;
  api(`/api/search/${state.search.id}`, undefined, "DELETE");
  state.search = null;
  $("engine-info").textContent = "stopped";
}

// -- variants and the editor ------------------------------------------------

async function loadVariants() {
  const answer = await api("/api/variants");
  const select = $("variant");
  for (const kind of ["bundled", "example"]) {
    const group = document.createElement("optgroup");
    group.label = kind === "bundled" ? "Bundled" : "Examples";
    for (const v of answer.variants.filter((x) => x.kind === kind)) {
      const option = document.createElement("option");
      option.value = `${kind}:${v.name}`;
      option.textContent = v.name;
      group.append(option);
    }
    select.append(group);
  }
  const wanted = new URLSearchParams(location.search).get("variant") || "chess";
  const match = answer.variants.find((v) => v.name === wanted);
  const value = match ? `${match.kind}:${match.name}` : "bundled:chess";
  select.value = value;
  await chooseVariant(value);
}

async function chooseVariant(value) {
  stopSearch();
  const [kind, name] = value.split(":");
  state.chosen = {[kind]: name};
  state.source = state.chosen;
  const answer = await api("/api/source", {source: state.source});
  state.pristine = answer.ok ? answer.yaml : "";
  $("yaml").value = state.pristine;
  showGutter([]);
  state.start = null;
  state.moves = [];
  state.ply = 0;
  letGo();
  await refresh();
  engineTurn();
}

let editTimer = null;
function onEdit() {
  clearTimeout(editTimer);
  editTimer = setTimeout(() => {
    stopSearch();
    const text = $("yaml").value;
    state.source = text === state.pristine ? state.chosen : {yaml: text};
    letGo();
    refresh();
  }, 400);
}

// -- analysis, position string, PGN ----------------------------------------

async function perft() {
  const depth = Number($("perft-depth").value) || 1;
  $("analysis").textContent = `perft ${depth}: counting…`;
  const answer = await api("/api/perft", request({depth}));
  $("analysis").textContent = answer.ok
    ? `perft ${answer.depth}: ${answer.nodes.toLocaleString("en")} nodes (${answer.seconds} s)`
    : problemText(answer.problems[0]);
}

async function explain() {
  if (!state.selected && !state.dropping) {
    $("analysis").textContent = "Select a piece on the board or in a hand first.";
    $("explain-board").replaceChildren();
    return;
  }
  const answer = await api("/api/explain", request(Object.assign(
    {pieces: state.pieceSet}, state.dropping ? {drop: state.dropping} : {cell: state.selected})));
  $("analysis").textContent = answer.ok ? answer.text : problemText(answer.problems[0]);
  $("explain-board").innerHTML = answer.ok ? answer.svg : "";
}

async function exportPgn() {
  const answer = await api("/api/pgn", request());
  if (!answer.ok) { $("status").textContent = problemText(answer.problems[0]); return; }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([answer.pgn], {type: "application/x-chess-pgn"}));
  link.download = "game.pgn";
  link.click();
  URL.revokeObjectURL(link.href);
}

async function setFen(event) {
  event.preventDefault();
  stopSearch();
  const previous = [state.start, state.moves, state.ply];
  state.start = $("fen").value.trim() || null;
  state.moves = [];
  state.ply = 0;
  letGo();
  const answer = await api("/api/position", request(view()));
  if (!answer.ok) {
    [state.start, state.moves, state.ply] = previous;
    $("status").textContent = problemText(answer.problems[0]);
    return;
  }
  show(answer);
}

async function copyFen() {
  const field = $("fen");
  try {
    await navigator.clipboard.writeText(field.value);
  } catch (error) {
    field.select();
    document.execCommand("copy");
  }
}

async function typedMove(event) {
  // SAN or a move string: the server reads it and answers the move played.
  event.preventDefault();
  const field = $("move-input");
  const text = field.value.trim();
  if (!text) return;
  stopSearch();
  const moves = state.moves.slice(0, state.ply).concat([text]);
  const answer = await api("/api/position", request(view({moves, ply: moves.length})));
  if (!answer.ok) { $("status").textContent = problemText(answer.problems[0]); return; }
  field.value = "";
  state.moves = answer.played;
  state.ply = answer.played.length;
  letGo();
  answered = ++requested;
  show(answer);
  engineTurn();
}

// -- wiring ------------------------------------------------------------------

function cellOf(event) {
  const target = event.target.closest && event.target.closest("[data-cell]");
  return target ? named(target, target.dataset.cell) : null;
}

function handPieceOf(event) {
  const target = event.target.closest && event.target.closest("[data-hand-piece]");
  return target ? named(target, target.dataset.handPiece) : null;
}

function onBoard(event) {
  const letter = handPieceOf(event);
  if (letter) { event.preventDefault(); onHand(letter); return; }
  const name = cellOf(event);
  if (name) { event.preventDefault(); onCell(name); }
}

$("board").addEventListener("click", onBoard);
$("board").addEventListener("keydown", (event) => {
  if (event.key === "Enter" || event.key === " ") onBoard(event);
});
document.addEventListener("keydown", (event) => {
  // Escape lets go of a selected piece or a move waiting for its wall.
  if (event.key !== "Escape" || $("chooser").open) return;
  if (state.selected || state.dropping || state.walling) { letGo(); refresh(); }
});
$("variant").addEventListener("change", (event) => chooseVariant(event.target.value));
$("yaml").addEventListener("input", () => { showGutter(lastProblems); onEdit(); });
$("yaml").addEventListener("scroll", () => { $("gutter").scrollTop = $("yaml").scrollTop; });
$("flip").addEventListener("click", () => { state.flip = !state.flip; refresh(); });
$("piece-set").addEventListener("click", () => {
  state.pieceSet = state.pieceSet === "traditional" ? "international" : "traditional";
  $("piece-set").setAttribute("aria-pressed", String(state.pieceSet === "international"));
  refresh();
});
$("takeback").addEventListener("click", takeBack);
$("restart").addEventListener("click", () => {
  stopSearch(); state.start = null; state.moves = []; state.ply = 0; letGo();
  refresh().then(engineTurn);
});
$("export-pgn").addEventListener("click", exportPgn);
$("fen-form").addEventListener("submit", setFen);
$("copy-fen").addEventListener("click", copyFen);
$("move-form").addEventListener("submit", typedMove);
$("engine-move").addEventListener("click", startSearch);
$("engine-stop").addEventListener("click", stopSearch);
$("engine-side").addEventListener("change", engineTurn);
$("perft").addEventListener("click", perft);
$("explain").addEventListener("click", explain);

loadVariants();
