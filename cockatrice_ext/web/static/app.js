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

function renderGames(data) {
  if (!data.games.length) return [el("p", "No refereed games right now.")];
  const list = el("ul", null, { id: "games" });
  for (const g of data.games) {
    const item = el("li");
    item.appendChild(el("a", `#${g.game} ${g.title}`, { href: `/game/${g.game}` }));
    item.appendChild(document.createTextNode(`: ${g.status}; ${g.players.join(", ") || "no players yet"}`));
    list.appendChild(item);
  }
  return [list];
}

function renderGame(data) {
  const parts = [summary(data.summary)];
  if (data.board && boards[data.board.format]) parts.push(...boards[data.board.format](data.board));
  return parts;
}

async function pick(number) {
  messages.textContent = "";
  const response = await fetch(base + "/pick", {
    method: "POST",
    body: new URLSearchParams({ choice: String(number) }),
    credentials: "omit",
  });
  if (!response.ok) {
    messages.textContent = await response.text();
    return;
  }
  const answer = await response.json();
  messages.textContent = answer.replies.length ? answer.replies.join(" ") : "Picked.";
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

const renderers = { games: renderGames, game: renderGame, private: renderPrivate };

function ended(text) {
  statusLine.textContent = "ended";
  statusLine.className = "status";
  view.prepend(el("p", text, { id: "ended", class: "ended" }));
  for (const button of view.querySelectorAll("button")) button.disabled = true;
}

function connect() {
  const source = new EventSource(base + "/events");
  source.addEventListener("view", (event) => {
    view.replaceChildren(...renderers[kind](JSON.parse(event.data)));
    statusLine.textContent = "live";
    statusLine.className = "status live";
  });
  source.addEventListener("expired", () => { source.close(); ended("This link has expired: the game is over."); });
  source.addEventListener("gone", () => { source.close(); ended("The referee has left this game."); });
  source.addEventListener("closed", () => { source.close(); ended("The referee's web view has stopped."); });
  source.onerror = () => {
    statusLine.textContent = "reconnecting…";
    statusLine.className = "status";
  };
}

connect();
