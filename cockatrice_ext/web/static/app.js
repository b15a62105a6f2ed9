// The live pages: one server-sent-events stream per page; each event is the page's whole view as
// JSON, drawn with textContent only (player and card names are never parsed as HTML). A page finds
// its stream and its actions from its own address, so no page carries a token in its text.
"use strict";

const kind = document.body.dataset.kind;
const view = document.getElementById("view");
const statusLine = document.getElementById("status");
const messages = document.getElementById("messages");
const announcer = document.getElementById("announce");
const base = location.pathname.replace(/\/+$/, "");
const baseTitle = document.title;

// -- announcements ------------------------------------------------------------------------------------------
// One polite live region, in the page from its load and never redrawn, says in a short sentence what the
// player must act on or know when it arrives (a new pack, their turn to buy, the lot's new bid, an answer,
// the page's end). Sentences said in one turn of the page go together; a sentence is said once per change
// of what it reports, not at every redraw.

let spoken = [];  // the sentences waiting for this turn's announcement
let spokenAt = 0;  // counts announcements: a late repeat of older words gives way to newer ones

function announce(sentence) {
  const text = String(sentence || "").trim();
  if (!announcer || !text || spoken.includes(text)) return;
  if (!spoken.length) setTimeout(speak, 0);
  spoken.push(text);
}

function speak() {
  const text = spoken.join(" ");
  spoken = [];
  spokenAt += 1;
  if (announcer.textContent !== text) {
    announcer.textContent = text;
    return;
  }
  // The same words for a new event (a second "Picked."): emptied first, so that they are said again.
  const turn = spokenAt;
  announcer.textContent = "";
  setTimeout(() => { if (spokenAt === turn) announcer.textContent = text; }, 150);
}

// A node; ``text`` is a string (set as text, never parsed) or a list of strings and nodes (a name in a
// <bdi>, so that right-to-left text in a player's or card's name cannot reorder the rest of the line).
function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (Array.isArray(text)) node.append(...text.map((part) => (part instanceof Node ? part : String(part))));
  else if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  return node;
}

function bdi(name) {
  return el("bdi", name);
}

// A standings row's player, isolated, and its mark as !standings says it after the name ("left", "out").
function markedPlayer(r) {
  return [bdi(r.player), r.mark ? ` (${r.mark})` : ""];
}

// Names joined by ``separator``, each isolated: a list for el().
function names(list, separator) {
  const parts = [];
  list.forEach((name, i) => { if (i) parts.push(separator); parts.push(bdi(name)); });
  return parts;
}

// ``text`` (made by the referee) with each of ``known`` (player names) in it isolated: a list for el().
function isolating(text, known) {
  const wanted = [...new Set(known)].filter((name) => name).sort((a, b) => b.length - a.length);
  const parts = [];
  let rest = String(text);
  while (rest) {
    let at = -1;
    let name = "";
    for (const candidate of wanted) {
      const i = rest.indexOf(candidate);
      if (i >= 0 && (at < 0 || i < at)) { at = i; name = candidate; }
    }
    if (at < 0) { parts.push(rest); break; }
    if (at) parts.push(rest.slice(0, at));
    parts.push(bdi(name));
    rest = rest.slice(at + name.length);
  }
  return parts;
}

// The player names a view holds (to isolate them in the referee's sentences).
function knownNames(data) {
  if (!data) return [];
  const found = [...((data.summary && data.summary.players) || [])];
  for (const part of [data.board, data.private]) {
    if (part && part.standings) found.push(...part.standings.map((r) => r.player));
    if (part && part.player) found.push(part.player);
  }
  if (data.lobby) found.push(...data.lobby.players);
  return found.filter((name) => typeof name === "string");
}

// A table in its own horizontally scrolling box (a narrow phone scrolls the table, not the page); a cell is a
// string, a number or a list for el(); player and card names are given as bdi() nodes. ``name`` names the
// table: { heading: the id of its section's heading } or { label: a few words } when it has no heading. The
// box is a named, focusable region only while it scrolls (fitScrollBoxes), so a keyboard can scroll it.
function table(id, headers, rows, name) {
  const naming = name.heading ? { "aria-labelledby": name.heading } : { "aria-label": name.label };
  const node = el("table", null, { id, ...naming });
  const head = node.createTHead().insertRow();
  for (const h of headers) head.appendChild(el("th", h, { scope: "col" }));
  const body = node.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.appendChild(el("td", cell instanceof Node ? [cell] : cell));
  }
  const box = el("div", null, { class: "scroll", "data-focus": `scroll:${id}` });
  box.appendChild(node);
  return box;
}

// Each table's box that scrolls (wider than the screen) is a region named as its table, in the tab order;
// one that does not scroll is neither (no empty stop for the keyboard, no landmark named like its table).
function fitScrollBoxes() {
  for (const box of view.querySelectorAll(".scroll")) {
    const inner = box.querySelector("table");
    if (inner && box.scrollWidth > box.clientWidth + 1) {
      box.setAttribute("role", "region");
      box.setAttribute("tabindex", "0");
      for (const attr of ["aria-labelledby", "aria-label"]) {
        if (inner.hasAttribute(attr)) box.setAttribute(attr, inner.getAttribute(attr));
      }
    } else {
      for (const attr of ["role", "tabindex", "aria-labelledby", "aria-label"]) box.removeAttribute(attr);
    }
  }
}

function facts(pairs) {
  const node = el("p", null, { class: "facts" });
  for (const [id, label, value] of pairs) {
    const span = el("span", `${label}: `);
    span.appendChild(el("b", [bdi(value)], { id }));
    node.appendChild(span);
  }
  return node;
}

function summary(s) {
  const players = s.players.length ? names(s.players, ", ") : ["nobody yet"];
  const status = isolating(s.status, s.players);
  return el("p", [`${s.title} game #${s.game}: `, ...status, ". Players: ", ...players, "."], { id: "summary" });
}

const NOBODY = "nobody now";
const NONE_YET = "none yet";

function auctionBoard(b) {
  const parts = [facts([["turn", "Turn", b.turn], ["active", "Active player", b.active || NOBODY],
                        ["block-left", "Block left", b.block_left]])];
  parts.push(el("h2", "Up for auction"));
  parts.push(el("div", b.lot.note.length ? b.lot.note.join("\n") : "No lot open.", { id: "lot", class: "note" }));
  parts.push(heading("gold", "Gold"));
  parts.push(table("gold", ["Player", "Gold"], b.gold.map((g) => [bdi(g.player), g.gold]), { heading: "gold-heading" }));
  parts.push(heading("history", "Auction history"));
  parts.push(table("history", ["Lot", "Cards", "Bought by", "Price", "Bids"],
    b.history.map((h) => [h.lot, names(h.cards, ", "), h.sold ? bdi(h.buyer) : "unsold", h.sold ? h.price : "none", h.bids]),
    { heading: "history-heading" }));
  return parts;
}

function vortexBoard(b) {
  return [
    facts([["phase", "Phase", b.phase], ["turn", "Turn", b.turn], ["active", "Whose turn", b.active || NOBODY],
           ["shoe", "Shoe", b.shoe], ["passed", "Passed pack", b.passed]]),
    table("packs", ["Player", "Pack", "To pick"], b.packs.map((p) => [bdi(p.player), p.size, p.to_pick ? "yes" : "no"]),
      { label: "Packs" }),
  ];
}

function combatBoard(b) {
  return [
    facts([["phase", "Phase", b.phase], ["round", "Round", `${b.round} of ${b.rounds}`], ["cap", "Spell cap", b.cap],
           ["active", "Whose turn", b.active || NOBODY], ["winner", "Winner", b.winner || NONE_YET]]),
    table("points", ["Player", "Points", "Life"], b.players.map((p) => [bdi(p.player), p.points, p.life]),
      { label: "Points and life" }),
  ];
}

const boards = { auction: auctionBoard, vortex: vortexBoard, combat: combatBoard };

function linkList(id, rows, text, href, players) {
  const list = el("ul", null, { id });
  for (const row of rows) {
    const item = el("li");
    item.appendChild(el("a", [bdi(text(row))], { href: href(row) }));
    item.append(": ", ...isolating(row.status, row.players || []), "; ", ...players(row));
    list.appendChild(item);
  }
  return list;
}

function renderGames(data) {
  const parts = [el("h2", "Games")];
  if (!data.games.length) parts.push(el("p", "No refereed games right now."));
  else parts.push(linkList("games", data.games, (g) => `#${g.game} ${g.title}`, (g) => `/game/${g.game}`,
    (g) => (g.players.length ? names(g.players, ", ") : ["no players yet"])));
  if (data.leagues.length) {
    parts.push(el("h2", "Leagues"));
    parts.push(linkList("leagues", data.leagues, (l) => l.title, (l) => `/league/${l.league}`,
      (l) => names(l.players, ", ")));
  }
  const prices = el("p");
  prices.appendChild(el("a", "Auction prices (every journaled game)", { href: "/prices", id: "prices-link" }));
  parts.push(prices);
  return parts;
}

function renderGame(data) {
  const parts = [summary(data.summary)];
  if (data.board && boards[data.board.format]) parts.push(...boards[data.board.format](data.board));
  if (data.board && data.board.format === "auction") {
    const chart = el("p");
    chart.appendChild(el("a", "Gold over this game (chart)", { href: `${base}/gold.svg`, id: "gold-chart" }));
    parts.push(chart);
    if (data.board.gold.length) {  // the chart's last figures, as text
      const figures = [];
      data.board.gold.forEach((g, i) => { if (i) figures.push(", "); figures.push(bdi(g.player), ` ${g.gold}`); });
      parts.push(el("p", ["Gold now: ", ...figures, "."], { id: "gold-figures" }));
    }
  }
  return parts;
}

// -- a league's public board: no card, only standings, pairings, results and the phase -------------------

let standingsChart = null;

function standingsPicture(decided) {
  // Fetched again only when another round is decided, not at every view (a shop roll, a purchase).
  if (!standingsChart || standingsChart.dataset.decided !== String(decided)) {
    standingsChart = el("img", null, { id: "standings-chart", src: `${base}/standings.svg?decided=${decided}`,
                                       alt: "Standings by round (chart; the figures follow as text)",
                                       "data-decided": decided });
  }
  return standingsChart;
}

// The chart's figures as a sentence: each player's value now (the chart's last point).
function standingsFigures(b) {
  const poison = b.format === "autobattler";
  const parts = [poison ? "Poison now: " : "Points now: "];
  b.standings.forEach((r, i) => {
    if (i) parts.push(", ");
    parts.push(bdi(r.player), ` ${poison ? r.poison : r.points}`);
  });
  parts.push(".");
  return el("p", parts, { id: "standings-figures" });
}

function renderLeagueBoard(data) {
  const b = data.board;
  const s = data.summary;
  const status = isolating(s.status, s.players);
  const parts = [el("p", [`${s.title}: `, ...status, ". Players: ", ...names(s.players, ", "), "."], { id: "summary" })];
  if (b.format === "autobattler") {
    parts.push(facts([["phase", "Phase", b.phase], ["round", "Round", b.round], ["energy", "Energy", b.energy],
                      ["carousel", "Carousel pick", b.carousel_turn || NOBODY],
                      ["champion", "Champion", b.champion || NONE_YET]]));
    parts.push(heading("standings", "Standings"));
    parts.push(table("standings", ["Place", "Player", "Poison", "Treasures"],
      b.standings.map((r) => [r.rank, markedPlayer(r), r.poison, r.treasures]),
      { heading: "standings-heading" }));
  } else {
    parts.push(facts([["phase", "Phase", b.phase], ["round", "Round", `${b.round} of ${b.rounds}`],
                      ["turn", "To buy", b.turn || NOBODY]]));
    parts.push(heading("standings", "Standings"));
    parts.push(table("standings", ["Place", "Player", "Points", "Wins", "Draws", "Losses"],
      b.standings.map((r) => [r.rank, markedPlayer(r), r.points, r.wins, r.draws, r.losses]),
      { heading: "standings-heading" }));
  }
  parts.push(heading("pairings", `Round ${b.round} pairings`));
  parts.push(table("pairings", ["Players", "Result"], b.pairings.map((m) => [names(m.players, " vs "), m.result]),
    { heading: "pairings-heading" }));
  const earlier = b.results.filter((m) => m.round < b.round);  // this round's are in its pairings
  if (earlier.length) {
    parts.push(heading("results", "Earlier results"));
    parts.push(table("results", ["Round", "Players", "Result"],
      earlier.map((m) => [m.round, names(m.players, " vs "), m.result]), { heading: "results-heading" }));
  }
  if (b.decided_rounds > 0) {
    parts.push(el("h2", "By round"));
    parts.push(standingsPicture(b.decided_rounds));
    parts.push(standingsFigures(b));
  }
  return parts;
}

// -- page actions -----------------------------------------------------------------------------------------
// A form posted beside the page's own address; the bot's answer (or the error, or that the referee could
// not be reached) is shown next to the button pressed and announced. A button whose request is on its way
// is marked busy (aria-disabled) and not sent twice; it keeps the keyboard focus. After a pick the focus
// goes to something that does not act (the pack's heading, else the answer), never to another card's Pick:
// a bounced second Enter must not pick a card the player never saw. For the same reason a Pick pressed just
// after a new pack arrived is ignored (PICK_GUARD_MS).

const OFFLINE = "Not sent: the referee cannot be reached (offline?). Your choice is kept: press the button again"
  + " when you are back online.";
const pending = new Set();  // the focus keys of buttons whose request is on its way
let answerNear = null;  // the focus key of the button whose answer #messages shows
let answerList = null;  // the id of the list that button was in (its card may be gone with the answer)
let lastData = null;  // the view drawn last
const PICK_GUARD_MS = 1000;  // a Pick pressed this soon after a new pack came is ignored
let packCameAt = -Infinity;  // when the cards to pick from last changed (performance.now())
let picking = null;  // the pick on its way: { key, list, cards } (cards: the list's names when pressed)

function listCards(id) {
  const list = id && document.getElementById(id);
  return list ? [...list.querySelectorAll("li")].map((li) => li.dataset.name).join("\n") : "";
}

// Where the focus goes after a pick's answer, unless the player moved it elsewhere meanwhile: the heading of
// the list picked from (a new pack's), else the answer.
function focusAfterPick(list) {
  const here = document.activeElement;
  const idle = !here || here === document.body || here === messages
    || (here.dataset && (here.dataset.focus || "").startsWith("pick:")) || here.tagName === "H2";
  if (!idle) return;
  const headingNode = list && document.getElementById(`${list}-heading`);
  const target = headingNode && document.getElementById(list) ? headingNode : messages;
  if (document.activeElement !== target) target.focus({ preventScroll: true });
}

async function post(action, fields, quiet, key) {
  if (pending.has(key)) return;  // no double submit
  pending.add(key);
  answerNear = key;
  const pressed = view.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  const list = pressed && pressed.closest("ol[id]");
  answerList = list ? list.id : null;
  const isPick = key.startsWith("pick:");
  if (isPick) picking = { key, list: answerList, cards: listCards(answerList) };
  messages.textContent = "";
  redraw();
  let text;
  try {
    const response = await fetch(base + action, {
      method: "POST",
      body: new URLSearchParams(fields),
      credentials: "omit",
    });
    if (!response.ok) {
      text = await response.text();
    } else {
      const answer = await response.json();
      text = answer.replies.length ? answer.replies.join(" ") : quiet;
    }
  } catch (error) {  // offline, or the referee's web view is gone: nothing was sent
    text = OFFLINE;
  } finally {
    pending.delete(key);
  }
  // The answer is in place before the redraw, so that a focus with nowhere else to go finds it.
  messages.replaceChildren(...isolating(text, knownNames(lastData)));
  redraw();
  if (isPick) {
    focusAfterPick(picking && picking.list);
    picking = null;
  }
  announce(text);
}

// A button; ``key`` names it across redraws (its focus, its pending request); ``label`` its accessible name
// when its text alone is ambiguous ("Pick" beside each card).
function button(text, key, enabled, onClick, label) {
  const attrs = { type: "button", "data-focus": key };
  if (!key.includes(":")) attrs.id = key;  // a card's button gets its id from its number (pickButton)
  if (label) attrs["aria-label"] = label;
  const node = el("button", text, attrs);
  node.disabled = !enabled;
  if (pending.has(key)) {
    node.setAttribute("aria-disabled", "true");
    node.classList.add("pending");
  }
  node.addEventListener("click", () => { if (!pending.has(key)) onClick(); });
  return node;
}

function pickButton(card, enabled, onClick) {
  const key = `pick:${card.key}`;
  const guarded = () => { if (performance.now() - packCameAt >= PICK_GUARD_MS) onClick(key); };
  const node = button("Pick", key, enabled, guarded, `Pick ${card.name}`);
  node.id = `pick-${card.number}`;
  node.setAttribute("data-number", card.number);
  return node;
}

// A Vortex pick sends ``seen`` too: a pack that changed since the page drew it (a timer's pick) is refused.
function pick(number, key) {
  const seen = lastData && lastData.private ? lastData.private.seen || "" : "";
  return post("/pick", { choice: String(number), seen }, "Picked.", key);
}

function combatHand(mine) {
  const list = el("ol", null, { id: "hand", class: "pack" });
  for (const card of mine.hand) list.appendChild(el("li", [bdi(card.name)], { "data-name": card.name }));
  return [el("h2", ["Your hand (", bdi(mine.player), ")"]), list, el("h2", "The table"), ...combatBoard(mine.board)];
}

function renderPrivate(data) {
  const parts = [summary(data.summary)];
  if (!data.private) return parts;
  const mine = data.private;
  if (mine.format === "combat") return parts.concat(combatHand(mine));
  parts.push(heading("pack", ["Your pack (", bdi(mine.player), ")"]));
  parts.push(el("p", mine.to_pick ? "You must pick now." : "Nothing to pick right now.", { id: "to-pick" }));
  const list = el("ol", null, { id: "pack", class: "pack", "aria-labelledby": "pack-heading" });
  for (const card of keyed(mine.pack)) {
    const item = el("li", [bdi(card.name)], { "data-name": card.name });
    item.append(" ", pickButton(card, mine.to_pick, (key) => pick(card.number, key)));
    list.appendChild(item);
  }
  parts.push(list);
  parts.push(el("h2", "The table"));
  parts.push(...vortexBoard(mine.board));
  return parts;
}

// -- league pages: each button sends the private chat command a player would type ---------------------
// A choice is kept by card (its name and which copy of that name), not by its number in a list: the market
// and the pool are numbered again after every buy. A chosen card no longer there is unchosen, with a note.
// Each action sends ``seen``, the version of the lists the page drew, and the referee refuses it if they
// changed meanwhile.

const chosen = { shop: null, pool: new Set(), market: null };
let spent = new Set();  // the cards the player's own last action used (gone by their own doing: no note)
let choiceNote = "";

function keyed(cards) {
  const copies = new Map();
  return cards.map((card) => {
    const copy = (copies.get(card.name) || 0) + 1;
    copies.set(card.name, copy);
    return { ...card, key: copy === 1 ? card.name : `${card.name} (${copy})` };
  });
}

function act(command, args, key, uses) {
  spent = new Set(uses || []);
  const seen = lastData && lastData.private ? lastData.private.seen || "" : "";
  return post("/act", { command, args: args || "", seen }, "Done.", key);
}

function choiceList(id, cards, type, isChosen, onChange, extra) {
  const attrs = { id, class: "pack", role: type === "radio" ? "radiogroup" : "group", "aria-labelledby": `${id}-heading` };
  const list = el("ol", null, attrs);
  for (const card of cards) {
    const item = el("li", null, { "data-name": card.name, "data-number": card.number });
    const label = el("label");
    const input = el("input", null, { type, name: id, value: card.number, "data-focus": `${id}:${card.key}` });
    input.checked = isChosen(card.key);
    input.addEventListener("change", () => onChange(card.key, input.checked));
    label.append(input, " ", bdi(card.label || card.name));
    item.appendChild(label);
    if (extra) extra(card, item);
    list.appendChild(item);
  }
  return list;
}

// A section's heading: names its list or table, and takes the focus after a pick (it does not act).
function heading(id, text) {
  return el("h2", text, { id: `${id}-heading`, tabindex: "-1" });
}

// Unchoose what is no longer there (saying so, unless the player's own action used it).
function keepChoices(mine) {
  const gone = [];
  const keep = (key, cards, where) => {
    if (key === null || cards.some((c) => c.key === key)) return key;
    if (!spent.has(`${where}:${key}`)) gone.push(`${key} is no longer in ${where === "market" ? "the market" : `your ${where}`}`);
    return null;
  };
  chosen.shop = keep(chosen.shop, keyed(mine.shop || []), "shop");
  chosen.market = keep(chosen.market, keyed(mine.market || []), "market");
  for (const key of [...chosen.pool]) if (keep(key, keyed(mine.pool), "pool") === null) chosen.pool.delete(key);
  if (gone.length) {
    choiceNote = `${gone.join("; ")}: your choice was cleared, choose again.`;
    announce(choiceNote);
  }
}

function noteLine() {  // announced once, when it is set (keepChoices), not at each redraw
  return choiceNote ? [el("p", choiceNote, { id: "choice-note", class: "note" })] : [];
}

function choose(update) {
  choiceNote = "";
  update();
  redraw();
}

function autobattlerDesk(mine) {
  const parts = [facts([["phase", "Phase", mine.phase], ["energy", "Energy", mine.energy],
                        ["treasures", "Treasures", mine.treasures], ["poison", "Poison", mine.poison]])];
  const shop = keyed(mine.shop);
  const pool = keyed(mine.pool);
  const carousel = keyed(mine.carousel);
  const numberOf = (cards, key) => (cards.find((c) => c.key === key) || {}).number;
  const poolKey = [...chosen.pool][0];
  parts.push(...noteLine());
  if (mine.drafting) {
    parts.push(heading("shop", "Your shop"));
    parts.push(choiceList("shop", shop, "radio", (k) => chosen.shop === k, (k) => choose(() => { chosen.shop = k; })));
  } else if (carousel.length) {
    parts.push(heading("carousel", mine.my_pick ? "Carousel: your pick" : ["Carousel: ", bdi(mine.carousel_turn), " picks"]));
    const list = el("ol", null, { id: "carousel", class: "pack", "aria-labelledby": "carousel-heading" });
    for (const card of carousel) {
      const item = el("li", [bdi(card.name)], { "data-name": card.name, "data-number": card.number });
      item.append(" ", pickButton(card, mine.my_pick, (key) => {
        const args = poolKey !== undefined ? `${card.number} for ${numberOf(pool, poolKey)}` : String(card.number);
        act("pick", args, key, [`carousel:${card.key}`, `pool:${poolKey}`]);
      }));
      list.appendChild(item);
    }
    parts.push(list);
  }
  parts.push(heading("pool", `Your pool (${pool.length})`));
  parts.push(choiceList("pool", pool, "radio", (k) => chosen.pool.has(k),
    (k, on) => choose(() => { chosen.pool = on ? new Set([k]) : new Set(); })));
  if (mine.drafting) {
    const actions = el("p", null, { class: "actions" });
    actions.append(
      button("Swap", "swap", chosen.shop !== null && poolKey !== undefined,
        () => act("swap", `${numberOf(shop, chosen.shop)} ${numberOf(pool, poolKey)}`, "swap",
          [`shop:${chosen.shop}`, `pool:${poolKey}`])),
      button("Roll", "roll", mine.treasures > 0, () => act("roll", "", "roll")),
      button("Done", "done", true, () => act("done", "", "done")));
    parts.push(actions);
  }
  if (mine.command_zone.length) parts.push(el("p", ["Command zone: ", ...names(mine.command_zone, ", ")]));
  parts.push(heading("standings", "The league"));
  parts.push(table("standings", ["Player", "Treasures", "Poison"],
    mine.standings.map((r) => [markedPlayer(r), r.treasures, r.poison]),
    { heading: "standings-heading" }));
  return parts;
}

function marketDesk(mine) {
  const parts = [facts([["phase", "Phase", mine.phase], ["round", "Round", mine.round],
                        ["turn", "To buy", mine.turn || NOBODY]])];
  parts.push(...noteLine());
  if (mine.pack.length) {
    parts.push(heading("pack", `Your pack (${mine.pack.length})`));
    const list = el("ol", null, { id: "pack", class: "pack", "aria-labelledby": "pack-heading" });
    for (const card of keyed(mine.pack)) {
      const item = el("li", [bdi(card.name)], { "data-name": card.name });
      item.append(" ", pickButton(card, true, (key) => act("pick", String(card.number), key, [`pack:${card.key}`])));
      list.appendChild(item);
    }
    parts.push(list);
  }
  const market = keyed(mine.market);
  const pool = keyed(mine.pool);
  const bought = market.find((c) => c.key === chosen.market) || null;
  const at = bought ? bought.number - 1 : null;
  if (market.length) {
    parts.push(heading("market", "The market"));
    parts.push(choiceList("market", market.map((c) => ({ ...c, label: `${c.name} (${c.rarity}, cost ${c.cost})` })),
      "radio", (k) => chosen.market === k, (k) => choose(() => { chosen.market = k; })));
  }
  parts.push(heading("pool", `Your pool (${pool.length})`));
  parts.push(choiceList("pool", pool, "checkbox", (k) => chosen.pool.has(k), (k, on) => {
    choose(() => { if (on) chosen.pool.add(k); else chosen.pool.delete(k); });
    const sum = document.getElementById("worth");  // a trade-in's sum, said when a pool card is (un)chosen
    if (sum) announce(sum.textContent);
  }, (card, item) => { if (bought) item.appendChild(el("span", ` worth ${card.worth[at]}`, { class: "worth" })); }));
  if (market.length) {
    const paying = pool.filter((c) => chosen.pool.has(c.key));
    const worths = bought ? paying.map((c) => c.worth[at]) : [];
    const total = worths.reduce((a, b) => a + b, 0);
    const sum = !bought ? "Choose a market card, then the pool cards you trade in."
      : `${bought.name}: worth ${worths.join(" + ") || "0"} = ${total} of cost ${bought.cost}`
        + (total >= bought.cost ? "" : ` (${bought.cost - total} short)`);
    parts.push(el("p", sum, { id: "worth" }));
    const numbers = paying.map((c) => c.number).join(", ");
    const uses = bought ? [`market:${bought.key}`, ...paying.map((c) => `pool:${c.key}`)] : [];
    const actions = el("p", null, { class: "actions" });
    actions.append(
      button("Buy", "buy", mine.my_turn && bought !== null && paying.length > 0 && total >= bought.cost,
        () => act("buy", `${bought.number} with ${numbers}`, "buy", uses),
        bought ? `Buy ${bought.name}` : undefined),
      button("Pass", "pass", mine.my_turn, () => act("pass", "", "pass")));
    parts.push(actions);
  }
  parts.push(heading("standings", "Standings"));
  parts.push(table("standings", ["Player", "Points"], mine.standings.map((r) => [markedPlayer(r), r.points]),
    { heading: "standings-heading" }));
  return parts;
}

// Before the start the page shows the lobby; the same page turns into the league's desk when it starts.
function lobby(data) {
  const l = data.lobby;
  const roster = el("ol", null, { id: "roster" });
  for (const name of l.players) roster.appendChild(el("li", [bdi(name)], { "data-name": name }));
  return [
    el("p", [`${data.summary.title}: `, ...isolating(data.summary.status, knownNames(data)), "."], { id: "summary" }),
    el("h2", `${l.format} lobby: ${l.players.length} joined (${l.needed} needed)`, { id: "lobby" }),
    roster,
    el("p", `To start, any of you says ${l.start} in the room. Your ${l.shows} will show here then.`,
      { id: "how-to-start" }),
  ];
}

function renderLeague(data) {
  if (data.lobby) return lobby(data);
  const mine = data.private;
  keepChoices(mine);
  const status = isolating(data.summary.status, knownNames(data));
  const parts = [el("p", [`${data.summary.title}: `, ...status, "."], { id: "summary" })];
  return parts.concat(mine.format === "autobattler" ? autobattlerDesk(mine) : marketDesk(mine));
}

const renderers = {
  games: renderGames, game: renderGame, private: renderPrivate, league: renderLeague, "league-board": renderLeagueBoard,
};

// -- drawing: a new view (or a choice) redraws the page, keeping the keyboard focus where it was ------------

function focusKey(node) {
  if (!node || node === document.body || !view.contains(node)) return null;
  if (node.dataset && node.dataset.focus) return { key: node.dataset.focus };
  if (node.id) return { id: node.id };
  return null;
}

function restoreFocus(was, list, index) {
  let target = null;
  if (was && was.key) target = view.querySelector(`[data-focus="${CSS.escape(was.key)}"]`);
  else if (was && was.id) target = document.getElementById(was.id);
  // A Pick on its way whose list is now another pack: the same name's button there is another card.
  if (target && picking && was.key === picking.key && listCards(picking.list) !== picking.cards) target = null;
  if (!target && list) {  // the card went (bought, picked): the control now in its place, or the list's last
    const controls = [...view.querySelectorAll(`#${CSS.escape(list)} [data-focus]`)];
    target = controls[Math.min(index, controls.length - 1)] || null;
    // A button in its place would act on a card the player has not seen: the list's heading instead.
    if (target && target.tagName === "BUTTON") target = document.getElementById(`${list}-heading`);
  }
  if (target && target.disabled) target = null;
  // The answer, beside the button pressed (or where it will be, while the request is on its way).
  if (!target && was && (messages.textContent || pending.size)) target = messages;
  if (target && document.activeElement !== target) target.focus({ preventScroll: true });
}

// #messages (the answer) goes next to the button pressed, so that a phone shows it where the player looks.
function placeAnswer() {
  const anchor = answerNear && view.querySelector(`[data-focus="${CSS.escape(answerNear)}"]`);
  const near = anchor && anchor.closest("li, .actions");
  const list = !anchor && answerList && document.getElementById(answerList);
  if (near && near.tagName === "LI") near.appendChild(messages);
  else if (near) near.after(messages);
  else if (list && view.contains(list)) list.before(messages);  // the card picked: above what is left
  else if (messages.parentNode !== document.body || messages.previousElementSibling !== view) view.after(messages);
}

let finished = false;  // the page ended (its link expired, the referee left): nothing is drawn any more

function redraw() {
  if (lastData === null || finished) return;
  const active = document.activeElement;
  const was = focusKey(active);
  const onAnswer = active === messages;  // moving the answer would drop its focus: given back below
  const listNode = active && view.contains(active) ? active.closest("ol[id]") : null;
  const list = listNode ? listNode.id : null;
  const index = listNode ? [...listNode.querySelectorAll("[data-focus]")].indexOf(active) : -1;
  const scroll = window.scrollY;
  if (view.contains(messages)) view.after(messages);  // kept out of the old tree while it is replaced
  view.replaceChildren(...renderers[kind](lastData));
  placeAnswer();
  fitScrollBoxes();
  if (onAnswer) {
    if (document.activeElement !== messages) messages.focus({ preventScroll: true });
  } else if (was) {
    restoreFocus(was, list, index);
  }
  const cards = pickCards();
  if (cards !== shownCards) {
    if (cards && shownCards !== null) packCameAt = performance.now();
    shownCards = cards;
  }
  if (window.scrollY !== scroll) window.scrollTo(window.scrollX, scroll);
}

let shownCards = null;  // the cards to pick from, as last drawn (null: nothing drawn yet)

// The names in the list the player picks from now (a Vortex or Market pack, the carousel), "" for none.
function pickCards() {
  const names = [...view.querySelectorAll("#pack li, #carousel li")].map((li) => li.dataset.name);
  return names.join("\n");
}

window.addEventListener("resize", fitScrollBoxes);

// -- what arrived: the sentences a view's change is announced with, and the page's title --------------------

// Whether ``now`` holds a card ``before`` did not (a pack passed on, a new shop), not only fewer of them.
function newCards(now, before) {
  const left = new Map();
  for (const card of before || []) left.set(card.name, (left.get(card.name) || 0) + 1);
  return now.some((card) => {
    const n = left.get(card.name) || 0;
    left.set(card.name, n - 1);
    return n <= 0;
  });
}

function plural(n, one) {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}

// What the player must act on now (for the page's title).
function mustAct(data) {
  const mine = data && data.private;
  if (!mine) return false;
  if (mine.format === "vortex") return Boolean(mine.to_pick);
  if (mine.format === "market") return mine.pack.length > 0 || Boolean(mine.my_turn);
  if (mine.format === "autobattler") return Boolean(mine.drafting || mine.my_pick);
  return false;
}

// The sentences that say what changed from ``before`` to ``now`` that the player must act on or know.
function changes(before, now) {
  const said = [];
  if (now.lobby) {
    const had = new Set(before.lobby ? before.lobby.players : []);
    const joined = now.lobby.players.filter((name) => !had.has(name));
    if (joined.length && before.lobby) {
      said.push(`${joined.join(", ")} joined: ${now.lobby.players.length} of ${now.lobby.needed} needed.`);
    }
    return said;
  }
  const mine = now.private;
  const was = before.private || {};
  if (mine && (mine.format === "vortex" || mine.format === "market")) {
    if (mine.pack.length && newCards(mine.pack, was.pack)) {
      said.push(`New pack: ${plural(mine.pack.length, "card")}.`);
    }
    if (mine.format === "vortex" && mine.to_pick && !was.to_pick) said.push("Your turn to pick.");
    if (mine.format === "market" && mine.my_turn && !was.my_turn) said.push("Your turn to buy.");
  }
  if (mine && mine.format === "autobattler") {
    if (mine.drafting && mine.shop.length && newCards(mine.shop, was.drafting ? was.shop : [])) {
      said.push(`New shop: ${plural(mine.shop.length, "card")}.`);
    }
    if (mine.my_pick && !was.my_pick) said.push("Your carousel pick.");
  }
  const lot = now.board && now.board.format === "auction" ? now.board.lot : null;
  const lotWas = before.board && before.board.lot ? before.board.lot.note.join(" ") : "";
  if (lot && lot.note.length && lot.note.join(" ") !== lotWas) said.push(lot.note.join(" "));
  if (now.board && now.board.format === "market" && before.board && now.board.turn !== before.board.turn) {
    said.push(now.board.turn ? `To buy: ${now.board.turn}.` : `To buy: ${NOBODY}.`);
  }
  return said;
}

function arrived(before, now) {
  document.title = mustAct(now) ? `(Your move) ${baseTitle}` : baseTitle;
  if (before === null) return;  // the page's first view is read as a page, not announced
  for (const sentence of changes(before, now)) announce(sentence);
}

// -- the stream -------------------------------------------------------------------------------------------

function ended(text) {
  finished = true;
  statusLine.textContent = "ended";
  statusLine.className = "status";
  view.prepend(el("p", text, { id: "ended", class: "ended" }));
  for (const node of view.querySelectorAll("button")) node.disabled = true;
  document.title = baseTitle;
  announce(text);
}

const RECONNECT_MS = 3000;  // as long as a browser waits before it opens a lost stream again
const KEEPALIVE_MS = 1000 * Number(document.body.dataset.keepalive || 15);
const SILENCE_MS = 2.5 * KEEPALIVE_MS;  // nothing for this long, not even a keepalive: the stream is lost

function reconnecting() {
  statusLine.textContent = "reconnecting…";
  statusLine.className = "status";
}

let stream = null;
let heard = Date.now();

function connect() {
  const source = new EventSource(base + "/events");
  stream = source;
  heard = Date.now();
  const alive = () => { if (stream === source) heard = Date.now(); };
  source.addEventListener("view", (event) => {
    alive();
    const before = lastData;
    lastData = JSON.parse(event.data);
    redraw();  // a notice that it stopped goes too
    arrived(before, lastData);
    if (statusLine.textContent !== "live") statusLine.textContent = "live";  // announced once, not each view
    statusLine.className = "status live";
  });
  source.addEventListener("keepalive", alive);
  const over = kind === "league" ? "the league is over" : "the game is over";
  const stop = () => { source.close(); if (stream === source) stream = null; };
  source.addEventListener("expired", () => { stop(); ended(`This link has expired: ${over}.`); });
  source.addEventListener("gone", () => { stop(); ended("The referee has left this game."); });
  source.addEventListener("left", () => { stop(); ended("You left the lobby: this link no longer works."); });
  source.addEventListener("closed", () => {
    // The web view stopped: for good, or for a restart, after which the referee honours its links. The page
    // tries again as for a lost stream; a referee back without this page refuses it, which ends the page.
    stop();
    const why = "The referee's web view has stopped; this page carries on if it comes back.";
    view.prepend(el("p", why, { id: "stopped", class: "ended" }));
    announce(why);
    reconnecting();
    setTimeout(connect, RECONNECT_MS);
  });
  source.onerror = () => {
    if (stream !== source) return;
    if (source.readyState === EventSource.CLOSED) {  // refused, not lost: the referee no longer has it
      stream = null;
      ended("This page is no longer served (the referee may have restarted without this game or league).");
      return;
    }
    heard = Date.now();  // the browser tries again by itself; give it its time
    reconnecting();
  };
}

// A connection dropped without a reset (a phone that slept, a network that changed) stays open and silent
// for ever: the page says so and opens its stream again. Checked every second, and at once when the phone
// wakes (the page shown again) or is back online.
function checkSilence() {
  if (stream === null || Date.now() - heard < SILENCE_MS) return;
  stream.close();
  stream = null;
  reconnecting();
  connect();
}

setInterval(checkSilence, Math.min(1000, KEEPALIVE_MS / 4));
document.addEventListener("visibilitychange", () => { if (!document.hidden) checkSilence(); });
window.addEventListener("online", checkSilence);

connect();
