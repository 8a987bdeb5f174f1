// The pages of `serve`: start a game, play it by clicks or keys, list and replay finished games.
// The server holds every game and draws every table (SVG); this file only shows what it sends
// and posts the human's moves as {"action", "version"}.
"use strict";

const $ = (selector) => document.querySelector(selector);

function make(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.error || response.statusText);
  return data;
}

// a phone held upright gets the table drawn for it (svg_portrait), when the game draws one
const upright = matchMedia("(max-width: 640px)");
function showTable(where, drawn) {
  const portrait = Boolean(upright.matches && drawn.svg_portrait);
  where.classList.toggle("portrait", portrait);
  where.innerHTML = portrait ? drawn.svg_portrait : drawn.svg;
}

function show(id) {
  for (const section of document.querySelectorAll("main > section")) section.hidden = section.id !== id;
}

// --- the start page --------------------------------------------------------------------------------
async function startPage() {
  show("start");
  const config = await api("/api/config");
  $("#rules").textContent = config.rules;
  const form = $("#start-form");
  const field = (label, input) => form.append(make("label", {for: input.id, text: label}), input);
  const select = (id, values, chosen) => {
    const node = make("select", {id});
    for (const value of values) node.append(make("option", {value: String(value), text: String(value)}));
    node.value = String(chosen);
    return node;
  };
  const players = select("players", config.players, config.defaults.players);
  const seat = make("select", {id: "seat"});
  const agents = make("div", {id: "agents", class: "bar"});
  field("Players", players);
  field("Your seat", seat);
  form.append(make("span", {text: "Other seats"}), agents);
  const options = {};
  for (const option of config.options) {
    const chosen = config.defaults[option.name] ?? option.default;
    let input;
    if (option.kind === "choice") input = select(`option-${option.name}`, option.choices, chosen);
    else if (option.kind === "bool") {
      input = make("input", {id: `option-${option.name}`, type: "checkbox"});
      input.checked = Boolean(chosen);
    } else input = make("input", {id: `option-${option.name}`, type: "number", placeholder: "default", value: chosen ?? ""});
    options[option.name] = [option, input];
    field(option.label, input);
  }
  const seed = make("input", {id: "seed", type: "number", min: "0", placeholder: "random"});
  if (config.seed_choice) field("Seed", seed);  // a study server (--no-seed-choice) deals its own

  function seats() {
    const n = Number(players.value);
    const mine = Math.min(Number(seat.value || 0), n - 1);
    seat.replaceChildren(...Array.from({length: n}, (_, s) => make("option", {value: String(s), text: String(s)})));
    seat.value = String(mine);
    const partner = config.partners[n][mine];
    agents.replaceChildren();
    for (let s = 0; s < n; s++) {
      if (s === mine) continue;
      const who = s === partner ? `partner (seat ${s})` : `seat ${s}`;
      const choice = select(`agent-${s}`, config.agents[n], config.defaults.agent);
      agents.append(make("label", {text: `${who} `}, choice));
    }
  }
  players.addEventListener("change", seats);
  seat.addEventListener("change", seats);
  seats();

  $("#start-button").onclick = async () => {
    const body = {players: Number(players.value), seat: Number(seat.value), agents: {}, options: {}};
    for (const node of agents.querySelectorAll("select")) body.agents[node.id.slice(6)] = node.value;
    for (const [name, [option, input]] of Object.entries(options)) {
      if (option.kind === "bool") body.options[name] = input.checked;
      else if (input.value !== "") body.options[name] = option.kind === "int" ? Number(input.value) : input.value;
    }
    if (seed.value !== "") body.seed = Number(seed.value);
    const button = $("#start-button");
    button.disabled = true;  // one game per click, however long the first one takes
    button.textContent = "Starting…";
    try {
      const created = await api("/api/sessions", body);
      location.href = created.url;
    } catch (error) {
      $("#start-error").textContent = error.message;
      button.disabled = false;
      button.textContent = "Start";
    }
  };
}

// --- playing -------------------------------------------------------------------------------------------
const KEYS = {
  sniff: "Pick a gold-edged tile, then a lit spot on the table (or its button). Keys: ← → choose, ↑ ↓ spot, Enter play, Esc clear, d draw, p pass.",
  twelve: "Pick a card, then the pile (or its button); a gold edge takes the pile. Keys: ← → choose, Enter play, Esc clear.",
};
// study: {next: async () => …} when the game is a study's hand (the page goes on when it is over)
async function playPage(token, study = null) {
  show("play");
  let state = null;
  let item = null;     // the hand item picked
  let spot = null;     // the spot the keyboard points at
  let busy = false;
  let continued = null;  // the version whose hand's end the player has seen and left

  const pausing = () => Boolean(state && state.hand_end && continued !== state.version);
  const moves = () => (state && state.to_act && !pausing() ? state.moves : []);
  const playable = () => [...new Set(moves().filter((m) => m.item !== null).map((m) => m.item))];
  const targets = () => moves().filter((m) => m.item === item && m.spot !== null).map((m) => m.spot);

  function mark() {
    for (const node of document.querySelectorAll("#your-hand [data-item]")) {
      node.classList.toggle("selected", Number(node.dataset.item) === item);
    }
    const open = targets();
    for (const node of document.querySelectorAll("#table [data-spot]")) {
      const at = Number(node.dataset.spot);
      node.classList.toggle("target", open.includes(at));
      node.classList.toggle("focus", open.includes(at) && at === spot);
    }
  }

  function pick(next) {
    item = next;
    spot = targets()[0] ?? null;
    mark();
    // draw / pass, and the picked item's moves: buttons big enough to tap on a phone
    const shown = moves().filter((m) => m.item === null || (item !== null && m.item === item));
    $("#buttons").replaceChildren(...shown.map((m) =>
      make("button", {type: "button", class: "primary", "data-action": m.action, "data-key": m.key, text: m.label,
        onclick: () => send(m.action)})));
  }

  function showHandEnd() {  // the hand as it ended, every hand face up, until the player continues
    document.body.dataset.handEnd = "true";
    showTable($("#table"), state.hand_end);
    $("#your-hand").replaceChildren();
    $("#hand-label").hidden = true;
    $("#status").className = "turn";
    $("#status").textContent = "The hand is over";
    $("#settlement").textContent = state.hand_end.text;
    $("#moves").replaceChildren();
    $("#buttons").replaceChildren(make("button", {type: "button", class: "primary", id: "continue",
      text: "Continue to the next hand", onclick: () => { continued = state.version; render(); }}));
    $("#continue").focus();
  }

  function render() {
    document.body.dataset.version = state.version;
    $("#keys").textContent = KEYS[state.game] ?? "";
    document.body.dataset.over = state.over;
    const lines = pausing() ? state.hand_end.log : state.log;  // the ended hand's events, then the next's
    $("#log").replaceChildren(...lines.map((line) => make("li", {text: line})));
    $("#resign").hidden = state.over || Boolean(study);
    $("#scores").textContent = state.scores;
    if (pausing()) return showHandEnd();
    document.body.dataset.handEnd = "false";
    $("#settlement").textContent = "";
    showTable($("#table"), state);
    $("#your-hand").innerHTML = state.hand.join("");
    $("#hand-label").hidden = state.hand.length === 0;
    const status = $("#status");
    status.className = state.to_act ? "turn" : "";
    status.textContent = state.over ? "Game over" : state.to_act ? "Your turn" : "Waiting for the other seats";
    const listed = [...new Map(moves().map((m) => [m.action, m])).values()];  // two cards of one rank: one move
    $("#moves").replaceChildren(...listed.map((m) => make("li", {},
      make("button", {type: "button", "data-action": m.action, text: m.label, onclick: () => send(m.action)}))));
    const result = $("#result");
    result.replaceChildren();
    if (state.over && study) {  // a study's hand is a game of one hand: its end is the hand's, not a match's
      result.append(`The hand is over. ${state.scores}`, make("br"));
      result.append(make("button", {type: "button", class: "primary", id: "study-next", text: "Continue",
        onclick: (event) => { event.target.disabled = true; study.next(); }}));
    } else if (state.over) {
      result.append(state.result);
      if (state.record) {
        // the game's token lets its replay open on a server whose records are private
        const replay = `/replay/${state.record}?token=${encodeURIComponent(token)}`;
        result.append(make("br"), "Saved as ", make("a", {href: replay, text: state.record}),
          " · ", make("a", {href: "/", text: "new game"}));
      }
    }
    if (!playable().includes(item)) item = null;
    pick(item);
  }

  async function load() {
    state = await api(`/api/sessions/${token}`);
    render();
  }

  async function send(action) {
    if (busy) return;
    busy = true;
    $("#error").textContent = "";
    const status = $("#status");
    status.className = "thinking";
    status.textContent = "The other seats are thinking…";
    try {
      state = await api(`/api/sessions/${token}/move`, {action, version: state.version});
      item = null;
      render();
    } catch (error) {
      $("#error").textContent = error.message;
      if (error.status === 409) await load();
    } finally {
      busy = false;
    }
  }

  function playAt(at) {
    const move = moves().find((m) => m.item === item && m.spot === at);
    if (move) send(move.action);
  }

  async function resign() {
    if (busy || !confirm("Resign this game? It ends here and is saved as it stands.")) return;
    busy = true;
    try {
      state = await api(`/api/sessions/${token}/resign`, {});
      render();
    } catch (error) {
      $("#error").textContent = error.message;
    } finally {
      busy = false;
    }
  }
  $("#resign").addEventListener("click", resign);
  upright.addEventListener("change", () => { if (state) render(); });  // the phone turned

  $("#play").addEventListener("click", (event) => {
    const hand = event.target.closest("#your-hand [data-item]");
    const target = event.target.closest("#table [data-spot]");
    if (hand) {
      const clicked = Number(hand.dataset.item);
      if (playable().includes(clicked)) pick(clicked === item ? null : clicked);
      else if (state.to_act) $("#error").textContent = "That one cannot be played now.";
    } else if (target && item !== null) {
      playAt(Number(target.dataset.spot));
    } else if (target && state.to_act && playable().length) {
      $("#error").textContent = "Pick a highlighted tile or card first, then the spot.";
    }
  });

  document.addEventListener("keydown", (event) => {
    if (!state || event.target.closest("input, select, textarea, button")) return;
    if (pausing() && (event.key === "Enter" || event.key === " ")) {
      $("#continue").click();
      event.preventDefault();
      return;
    }
    if (!state.to_act) return;
    const items = playable();
    const open = targets();
    const step = (list, current, by) => list[(list.indexOf(current) + by + list.length) % list.length];
    const button = moves().find((m) => m.key === event.key.toLowerCase());
    if (button) send(button.action);
    else if (event.key === "ArrowRight" && items.length) pick(step(items, item ?? items[items.length - 1], 1));
    else if (event.key === "ArrowLeft" && items.length) pick(step(items, item ?? items[0], -1));
    else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && open.length) {
      spot = step(open, spot, event.key === "ArrowDown" ? 1 : -1);
      mark();
    } else if ((event.key === "Enter" || event.key === " ") && item !== null && spot !== null) playAt(spot);
    else if (event.key === "Escape") pick(null);
    else return;
    event.preventDefault();
  });

  try {
    await load();
  } catch (error) {
    $("#status").textContent = error.message;
  }
}

// --- replays -------------------------------------------------------------------------------------------
async function replayList() {
  show("replays");
  const list = $("#record-list");
  list.replaceChildren();
  let next = "/api/records";  // a page at a time, newest first: the Link header names the next one
  async function more() {
    const response = await fetch(next);
    const records = await response.json().catch(() => []);
    if (!response.ok) throw new ApiError(response.status, records.error || response.statusText);
    next = (/<([^>]+)>;\s*rel="next"/.exec(response.headers.get("Link") || "") || [])[1];
    list.querySelector(".older")?.remove();
    list.append(...recordRows(records));
    if (next) list.append(make("tr", {class: "older"}, make("td", {colspan: "6"},
      make("button", {type: "button", class: "link", text: "older games", onclick: more}))));
    if (!list.children.length) list.append(make("tr", {}, make("td", {colspan: "6", text: "no finished games yet"})));
  }
  try {
    await more();
  } catch (error) {  // e.g. a server whose records are private
    list.replaceChildren(make("tr", {}, make("td", {colspan: "6", text: error.message})));
  }
}

function recordRows(records) {
  return records.map((r) => make("tr", {},
    make("td", {}, r.error ? r.name : make("a", {href: `/replay/${r.name}`, text: r.name})),
    ...(r.error ? [make("td", {colspan: "5", text: r.error})] : [
      make("td", {text: String(r.players)}),
      make("td", {text: String(r.human_seat ?? "")}),
      make("td", {text: Object.entries(r.agents).map(([s, a]) => `${s}: ${a}`).join(", ")}),
      make("td", {text: String(r.actions)}),
      make("td", {text: r.scores.join(" / ")}),
    ])));
}

async function replayPage(name) {
  show("replay");
  const path = `/api/records/${encodeURIComponent(name)}`;
  const token = new URLSearchParams(location.search).get("token");
  const own = token ? `token=${encodeURIComponent(token)}` : "";  // private records replay with it
  let info;
  try {
    info = await api(own ? `${path}?${own}` : path);
  } catch (error) {
    $("#replay-title").textContent = error.message;
    return;
  }
  let step = 0;
  $("#replay-title").textContent = `${info.name}: ${info.names.join(" · ")}`;
  const hand = $("#hand");
  hand.replaceChildren(...info.hands.map((h) => make("option", {value: String(h.step), text: String(h.hand)})));
  hand.onchange = () => go(Number(hand.value));
  upright.addEventListener("change", () => go(step));  // the phone turned

  async function go(next) {
    step = Math.max(0, Math.min(info.steps, next));
    const frame = await api(`${path}?step=${step}${own ? `&${own}` : ""}`);
    if (frame.step !== step) return;  // a later click won
    showTable($("#replay-table"), frame);
    $("#position").textContent = `move ${step} of ${info.steps}`;
    $("#line").textContent = step ? info.lines[step - 1] : "the deal, every hand face up";
    $("#replay-result").textContent = step === info.steps ? info.result : "";  // the end only at the end
    const current = info.hands.filter((h) => h.step <= step).pop();
    if (current) hand.value = String(current.step);
    document.body.dataset.step = step;
  }

  $("#first").onclick = () => go(0);
  $("#back").onclick = () => go(step - 1);
  $("#forward").onclick = () => go(step + 1);
  $("#last").onclick = () => go(info.steps);
  document.addEventListener("keydown", (event) => {
    const moves = {ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: info.steps};
    if (event.key in moves && !event.target.closest("select")) {
      go(moves[event.key]);
      event.preventDefault();
    }
  });
  await go(0);
}

let path = null;
try {
  path = decodeURIComponent(location.pathname);
} catch {  // a malformed % escape: say so on the start page instead of a blank one
  startPage().then(() => { $("#start-error").textContent = "That address is not one this app knows; start a game here."; });
}
if (path !== null) {
  const play = path.match(/^\/play\/([^/]+)$/);
  const replay = path.match(/^\/replay\/(.+)$/);
  const studied = path.match(/^\/study\/([^/]+)(\/admin)?$/);
  if (studied) (studied[2] ? adminPage : studyPage)(studied[1]);
  else if (play) playPage(play[1]);
  else if (replay) replayPage(replay[1]);
  else if (path === "/replay") replayList();
  else startPage();
}
