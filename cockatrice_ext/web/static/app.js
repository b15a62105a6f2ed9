// The live pages: one server-sent-events stream per page; each event is the page's whole view as
// JSON, drawn with textContent only (player and card names are never parsed as HTML). A page finds
// its stream and its actions from its own address, so no page carries a token in its text.
"use strict";

const kind = document.body.dataset.kind;
const view = document.getElementById("view");
const statusLine = document.getElementById("status");
const messages = document.getElementById("messages");
const base = location.pathname.replace(/\/+$/, "");

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  return node;
}

function table(id, headers, rows) {
  const node = el("table", null, { id });
  const head = node.createTHead().insertRow();
  for (const h of headers) head.appendChild(el("th", h));
  const body = node.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.appendChild(el("td", cell));
  }
  return node;
}

function facts(pairs) {
  const node = el("p", null, { class: "facts" });
  for (const [id, label, value] of pairs) {
    const span = el("span", `${label}: `);
    span.appendChild(el("b", value, { id }));
    node.appendChild(span);
  }
  return node;
}

function summary(s) {
  const players = s.players.length ? s.players.join(", ") : "nobody yet";
  return el("p", `${s.title} game #${s.game}: ${s.status}. Players: ${players}.`, { id: "summary" });
}

function auctionBoard(b) {
  const parts = [facts([["turn", "Turn", b.turn], ["active", "Active player", b.active || "-"],
                        ["block-left", "Block left", b.block_left]])];
  parts.push(el("h2", "Up for auction"));
  parts.push(el("div", b.lot.note.length ? b.lot.note.join("\n") : "No lot open.", { id: "lot", class: "note" }));
  parts.push(el("h2", "Gold"));
  parts.push(table("gold", ["Player", "Gold"], b.gold.map((g) => [g.player, g.gold])));
  parts.push(el("h2", "Auction history"));
  parts.push(table("history", ["Lot", "Cards", "Bought by", "Price", "Bids"],
    b.history.map((h) => [h.lot, h.cards.join(", "), h.sold ? h.buyer : "unsold", h.sold ? h.price : "-", h.bids])));
  return parts;
}

function vortexBoard(b) {
  return [
    facts([["phase", "Phase", b.phase], ["turn", "Turn", b.turn], ["active", "Whose turn", b.active || "-"],
           ["shoe", "Shoe", b.shoe], ["passed", "Passed pack", b.passed]]),
    table("packs", ["Player", "Pack", "To pick"], b.packs.map((p) => [p.player, p.size, p.to_pick ? "yes" : ""])),
  ];
}

function combatBoard(b) {
  return [
    facts([["phase", "Phase", b.phase], ["round", "Round", `${b.round} of ${b.rounds}`], ["cap", "Spell cap", b.cap],
           ["active", "Whose turn", b.active || "-"], ["winner", "Winner", b.winner || "-"]]),
    table("points", ["Player", "Points", "Life"], b.players.map((p) => [p.player, p.points, p.life])),
  ];
}

const boards = { auction: auctionBoard, vortex: vortexBoard, combat: combatBoard };

function linkList(id, rows, text, href, players) {
  const list = el("ul", null, { id });
  for (const row of rows) {
    const item = el("li");
    item.appendChild(el("a", text(row), { href: href(row) }));
    item.appendChild(document.createTextNode(`: ${row.status}; ${players(row)}`));
    list.appendChild(item);
  }
  return list;
}

function renderGames(data) {
  const parts = [el("h2", "Games")];
  if (!data.games.length) parts.push(el("p", "No refereed games right now."));
  else parts.push(linkList("games", data.games, (g) => `#${g.game} ${g.title}`, (g) => `/game/${g.game}`,
    (g) => g.players.join(", ") || "no players yet"));
  if (data.leagues.length) {
    parts.push(el("h2", "Leagues"));
    parts.push(linkList("leagues", data.leagues, (l) => l.title, (l) => `/league/${l.league}`,
      (l) => l.players.join(", ")));
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
  }
  return parts;
}

// -- a league's public board: no card, only standings, pairings, results and the phase -------------------

let standingsChart = null;

function standingsPicture(decided) {
  // Fetched again only when another round is decided, not at every view (a shop roll, a purchase).
  if (!standingsChart || standingsChart.dataset.decided !== String(decided)) {
    standingsChart = el("img", null, { id: "standings-chart", src: `${base}/standings.svg?decided=${decided}`,
                                       alt: "Standings by round", "data-decided": decided });
  }
  return standingsChart;
}

function renderLeagueBoard(data) {
  const b = data.board;
  const s = data.summary;
  const parts = [el("p", `${s.title}: ${s.status}. Players: ${s.players.join(", ")}.`, { id: "summary" })];
  if (b.format === "autobattler") {
    parts.push(facts([["phase", "Phase", b.phase], ["round", "Round", b.round], ["energy", "Energy", b.energy],
                      ["carousel", "Carousel pick", b.carousel_turn || "-"], ["champion", "Champion", b.champion || "-"]]));
    parts.push(el("h2", "Standings"));
    parts.push(table("standings", ["Player", "Poison", "Treasures"],
      b.standings.map((r) => [r.out ? `${r.player} (out)` : r.player, r.poison, r.treasures])));
  } else {
    parts.push(facts([["phase", "Phase", b.phase], ["round", "Round", `${b.round} of ${b.rounds}`],
                      ["turn", "To buy", b.turn || "-"]]));
    parts.push(el("h2", "Standings"));
    parts.push(table("standings", ["Player", "Points", "Wins", "Draws", "Losses"],
      b.standings.map((r) => [r.player, r.points, r.wins, r.draws, r.losses])));
  }
  parts.push(el("h2", `Round ${b.round} pairings`));
  parts.push(table("pairings", ["Players", "Result"], b.pairings.map((m) => [m.players.join(" vs "), m.result])));
  const earlier = b.results.filter((m) => m.round < b.round);  // this round's are in its pairings
  if (earlier.length) {
    parts.push(el("h2", "Earlier results"));
    parts.push(table("results", ["Round", "Players", "Result"],
      earlier.map((m) => [m.round, m.players.join(" vs "), m.result])));
  }
  if (b.decided_rounds > 0) {
    parts.push(el("h2", "By round"));
    parts.push(standingsPicture(b.decided_rounds));
  }
  return parts;
}

// A page action: a form posted beside the page's own address; the bot's answers (or the error) shown.
async function post(action, fields, quiet) {
  messages.textContent = "";
  const response = await fetch(base + action, {
    method: "POST",
    body: new URLSearchParams(fields),
    credentials: "omit",
  });
  if (!response.ok) {
    messages.textContent = await response.text();
    return;
  }
  const answer = await response.json();
  messages.textContent = answer.replies.length ? answer.replies.join(" ") : quiet;
}

function pick(number) {
  return post("/pick", { choice: String(number) }, "Picked.");
}

function combatHand(mine) {
  const list = el("ol", null, { id: "hand", class: "pack" });
  for (const card of mine.hand) list.appendChild(el("li", card.name, { "data-name": card.name }));
  return [el("h2", `Your hand (${mine.player})`), list, el("h2", "The table"), ...combatBoard(mine.board)];
}

function renderPrivate(data) {
  const parts = [summary(data.summary)];
  if (!data.private) return parts;
  const mine = data.private;
  if (mine.format === "combat") return parts.concat(combatHand(mine));
  parts.push(el("h2", `Your pack (${mine.player})`));
  parts.push(el("p", mine.to_pick ? "You must pick now." : "Nothing to pick right now.", { id: "to-pick" }));
  const list = el("ol", null, { id: "pack", class: "pack" });
  for (const card of mine.pack) {
    const item = el("li", card.name, { "data-name": card.name });
    const button = el("button", "Pick", { type: "button", "data-number": card.number });
    button.disabled = !mine.to_pick;
    button.addEventListener("click", () => pick(card.number));
    item.appendChild(button);
    list.appendChild(item);
  }
  parts.push(list);
  parts.push(el("h2", "The table"));
  parts.push(...vortexBoard(mine.board));
  return parts;
}

// -- league pages: each button sends the private chat command a player would type ---------------------

const chosen = { shop: null, pool: new Set(), market: null };

function act(command, args) {
  return post("/act", { command, args: args || "" }, "Done.");
}

function button(text, id, enabled, onClick) {
  const node = el("button", text, { type: "button", id });
  node.disabled = !enabled;
  node.addEventListener("click", onClick);
  return node;
}

function choiceList(id, cards, type, isChosen, onChange, extra) {
  const list = el("ol", null, { id, class: "pack" });
  for (const card of cards) {
    const item = el("li", null, { "data-name": card.name, "data-number": card.number });
    const label = el("label");
    const input = el("input", null, { type, name: id, value: card.number });
    input.checked = isChosen(card.number);
    input.addEventListener("change", () => onChange(card.number, input.checked));
    label.append(input, document.createTextNode(` ${card.name}`));
    item.appendChild(label);
    if (extra) extra(card, item);
    list.appendChild(item);
  }
  return list;
}

function keepChoices(mine) {
  const inShop = (n) => n !== null && n <= (mine.shop || []).length;
  if (!inShop(chosen.shop)) chosen.shop = null;
  if (chosen.market !== null && chosen.market > (mine.market || []).length) chosen.market = null;
  for (const n of [...chosen.pool]) if (n > mine.pool.length) chosen.pool.delete(n);
}

function autobattlerDesk(mine, redraw) {
  const parts = [facts([["phase", "Phase", mine.phase], ["energy", "Energy", mine.energy],
                        ["treasures", "Treasures", mine.treasures], ["poison", "Poison", mine.poison]])];
  const single = (n, on) => { chosen.pool = on ? new Set([n]) : new Set(); redraw(); };
  if (mine.drafting) {
    parts.push(el("h2", "Your shop"));
    parts.push(choiceList("shop", mine.shop, "radio", (n) => chosen.shop === n, (n) => { chosen.shop = n; redraw(); }));
  } else if (mine.carousel.length) {
    parts.push(el("h2", mine.my_pick ? "Carousel: your pick" : `Carousel: ${mine.carousel_turn} picks`));
    parts.push(choiceList("carousel", mine.carousel, "radio", () => false, () => {}, (card, item) => {
      const args = chosen.pool.size ? `${card.number} for ${[...chosen.pool][0]}` : String(card.number);
      item.appendChild(button("Pick", `pick-${card.number}`, mine.my_pick, () => act("pick", args)));
    }));
  }
  parts.push(el("h2", `Your pool (${mine.pool.length})`));
  parts.push(choiceList("pool", mine.pool, "radio", (n) => chosen.pool.has(n), single));
  if (mine.drafting) {
    const pool = [...chosen.pool][0];
    const swap = button("Swap", "swap", chosen.shop !== null && pool !== undefined,
      () => act("swap", `${chosen.shop} ${pool}`));
    parts.push(el("p", null, { class: "actions" }));
    parts[parts.length - 1].append(swap, button("Roll", "roll", mine.treasures > 0, () => act("roll")),
      button("Done", "done", true, () => act("done")));
  }
  if (mine.command_zone.length) parts.push(el("p", `Command zone: ${mine.command_zone.join(", ")}`));
  parts.push(el("h2", "The league"));
  parts.push(table("standings", ["Player", "Treasures", "Poison"],
    mine.standings.map((r) => [r.out ? `${r.player} (out)` : r.player, r.treasures, r.poison])));
  return parts;
}

function marketDesk(mine, redraw) {
  const parts = [facts([["phase", "Phase", mine.phase], ["round", "Round", mine.round],
                        ["turn", "To buy", mine.turn || "-"]])];
  if (mine.pack.length) {
    parts.push(el("h2", `Your pack (${mine.pack.length})`));
    const list = el("ol", null, { id: "pack", class: "pack" });
    for (const card of mine.pack) {
      const item = el("li", card.name, { "data-name": card.name });
      item.appendChild(button("Pick", `pick-${card.number}`, true, () => act("pick", String(card.number))));
      list.appendChild(item);
    }
    parts.push(list);
  }
  const m = chosen.market;
  if (mine.market.length) {
    parts.push(el("h2", "The market"));
    parts.push(choiceList("market", mine.market.map((c) => ({ ...c, name: `${c.name} (${c.rarity}, cost ${c.cost})` })),
      "radio", (n) => m === n, (n) => { chosen.market = n; redraw(); }));
  }
  parts.push(el("h2", `Your pool (${mine.pool.length})`));
  parts.push(choiceList("pool", mine.pool, "checkbox", (n) => chosen.pool.has(n), (n, on) => {
    if (on) chosen.pool.add(n); else chosen.pool.delete(n);
    redraw();
  }, (card, item) => { if (m !== null) item.appendChild(el("span", ` worth ${card.worth[m - 1]}`, { class: "worth" })); }));
  if (mine.market.length) {
    const paying = mine.pool.filter((c) => chosen.pool.has(c.number));
    const worths = m === null ? [] : paying.map((c) => c.worth[m - 1]);
    const total = worths.reduce((a, b) => a + b, 0);
    const cost = m === null ? null : mine.market[m - 1].cost;
    const sum = m === null ? "Choose a market card, then the pool cards you trade in."
      : `${mine.market[m - 1].name}: worth ${worths.join(" + ") || "0"} = ${total} of cost ${cost}`
        + (total >= cost ? "" : ` (${cost - total} short)`);
    parts.push(el("p", sum, { id: "worth" }));
    const numbers = paying.map((c) => c.number).join(", ");
    const actions = el("p", null, { class: "actions" });
    actions.append(
      button("Buy", "buy", mine.my_turn && m !== null && paying.length > 0 && total >= cost,
        () => act("buy", `${m} with ${numbers}`)),
      button("Pass", "pass", mine.my_turn, () => act("pass")));
    parts.push(actions);
  }
  parts.push(el("h2", "Standings"));
  parts.push(table("standings", ["Player", "Points"], mine.standings.map((r) => [r.player, r.points])));
  return parts;
}

// Before the start the page shows the lobby; the same page turns into the league's desk when it starts.
function lobby(data) {
  const l = data.lobby;
  const roster = el("ol", null, { id: "roster" });
  for (const name of l.players) roster.appendChild(el("li", name, { "data-name": name }));
  return [
    el("p", `${data.summary.title}: ${data.summary.status}.`, { id: "summary" }),
    el("h2", `${l.format} lobby: ${l.players.length} joined (${l.needed} needed)`, { id: "lobby" }),
    roster,
    el("p", `To start, any of you says ${l.start} in the room. Your ${l.shows} will show here then.`,
      { id: "how-to-start" }),
  ];
}

let lastLeague = null;

function renderLeague(data) {
  if (data.lobby) return lobby(data);
  lastLeague = data;
  const mine = data.private;
  keepChoices(mine);
  const redraw = () => view.replaceChildren(...renderLeague(lastLeague));
  const parts = [el("p", `${data.summary.title}: ${data.summary.status}.`, { id: "summary" })];
  return parts.concat(mine.format === "autobattler" ? autobattlerDesk(mine, redraw) : marketDesk(mine, redraw));
}

const renderers = {
  games: renderGames, game: renderGame, private: renderPrivate, league: renderLeague, "league-board": renderLeagueBoard,
};

function ended(text) {
  statusLine.textContent = "ended";
  statusLine.className = "status";
  view.prepend(el("p", text, { id: "ended", class: "ended" }));
  for (const button of view.querySelectorAll("button")) button.disabled = true;
}

const RECONNECT_MS = 3000;  // as long as a browser waits before it opens a lost stream again

function reconnecting() {
  statusLine.textContent = "reconnecting…";
  statusLine.className = "status";
}

function connect() {
  const source = new EventSource(base + "/events");
  source.addEventListener("view", (event) => {
    view.replaceChildren(...renderers[kind](JSON.parse(event.data)));  // a notice that it stopped goes too
    statusLine.textContent = "live";
    statusLine.className = "status live";
  });
  const over = kind === "league" ? "the league is over" : "the game is over";
  source.addEventListener("expired", () => { source.close(); ended(`This link has expired: ${over}.`); });
  source.addEventListener("gone", () => { source.close(); ended("The referee has left this game."); });
  source.addEventListener("left", () => { source.close(); ended("You left the lobby: this link no longer works."); });
  source.addEventListener("closed", () => {
    // The web view stopped: for good, or for a restart, after which the referee honours its links. The page
    // tries again as for a lost stream; a referee back without this page refuses it, which ends the page.
    source.close();
    view.prepend(el("p", "The referee's web view has stopped; this page carries on if it comes back.",
                    { id: "stopped", class: "ended" }));
    reconnecting();
    setTimeout(connect, RECONNECT_MS);
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) {  // refused, not lost: the referee no longer has it
      ended("This page is no longer served (the referee may have restarted without this game or league).");
      return;
    }
    reconnecting();  // the browser tries again by itself
  };
}

connect();
