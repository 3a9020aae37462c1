// The Fair play page's checker: the procedure of docs/fair-play.md, in the browser with Web
// Crypto (SHA-256 and HMAC-SHA256), on a game file downloaded from the history. Nothing is sent
// to the server. It checks the commitment, every revealed key and every deal in the file's log;
// the legality of every card is left to `python -m app.verify`.
(function () {
  "use strict";
  var RANKS = "23456789TJQKA";
  var SUITS = "CDSH";
  var REMOVED = { 3: ["2D"], 4: [], 5: ["2C", "2D"], 6: ["3C", "4C", "2D", "3D"], 7: ["3C", "2D", "3D"] };
  var WORD = 4294967296; // 2^32
  var encoder = new TextEncoder();

  function pack(variant, players) {
    var cards = [];
    for (var s = 0; s < SUITS.length; s++) {
      for (var r = 0; r < RANKS.length; r++) {
        var card = RANKS[r] + SUITS[s];
        if (variant === "cancellation") cards.push(card, card);
        else if ((REMOVED[players] || []).indexOf(card) < 0) cards.push(card);
      }
    }
    return cards;
  }

  function hex(bytes) {
    return Array.prototype.map.call(new Uint8Array(bytes), function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function unhex(text) {
    if (typeof text !== "string" || !/^[0-9a-f]{64}$/.test(text)) throw new Error("hex");
    var bytes = new Uint8Array(32);
    for (var i = 0; i < 32; i++) bytes[i] = parseInt(text.substr(i * 2, 2), 16);
    return bytes;
  }

  function sha256(bytes) {
    return crypto.subtle.digest("SHA-256", bytes).then(hex);
  }

  function hmacKey(bytes) {
    return crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }

  function hmac(key, text) {
    return crypto.subtle.sign("HMAC", key, encoder.encode(text));
  }

  // The key's stream of 32-bit big-endian integers, read block by block.
  async function shuffle(cards, keyBytes) {
    var key = await hmacKey(keyBytes);
    var block = 0;
    var words = null;
    var at = 8;
    async function next() {
      if (at === 8) {
        words = new DataView(await hmac(key, "shuffle " + block));
        block += 1;
        at = 0;
      }
      var word = words.getUint32(at * 4, false);
      at += 1;
      return word;
    }
    async function uniform(m) {
      var limit = WORD - (WORD % m);
      for (;;) {
        var u = await next();
        if (u < limit) return u % m;
      }
    }
    var out = cards.slice();
    for (var i = out.length - 1; i > 0; i--) {
      var j = await uniform(i + 1);
      var t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }

  function sorted(cards) {
    return cards.map(String).slice().sort().join(" ");
  }

  async function dealMatches(options, keyBytes, deal) {
    var players = options.num_players;
    var cards = await shuffle(pack(options.variant, players), keyBytes);
    var size = Math.floor(cards.length / players);
    if (!deal || !Array.isArray(deal.hands) || deal.hands.length !== players) return false;
    for (var s = 0; s < players; s++) {
      if (sorted(cards.slice(s * size, (s + 1) * size)) !== sorted(deal.hands[s])) return false;
    }
    return sorted(cards.slice(players * size)) === sorted(deal.kitty || []);
  }

  async function check(doc, say) {
    if (!doc || doc.format !== "hearts-game" || doc.format_version !== 1) {
      return say("unreadable", {}, false);
    }
    var seal = doc.fair_play;
    if (seal === null) return say("old", {}, null);
    var options = (doc.header || {}).options || {};
    if (!seal || seal.procedure !== form.dataset.procedure || !Array.isArray(doc.actions)) {
      return say("unreadable", {}, false);
    }
    var ok = true;
    var secret = null;
    if (seal.secret) {
      secret = await hmacKey(unhex(seal.secret));
      var matches = (await sha256(unhex(seal.secret))) === seal.commitment;
      say(matches ? "secretOk" : "badSecret", {}, matches);
      ok = ok && matches;
    }
    var deals = doc.actions.filter(function (a) { return a && a.type === "deal"; });
    var hands = Array.isArray(seal.hands) ? seal.hands : [];
    for (var h = 0; h < hands.length; h++) {
      var hand = hands[h];
      var n = hand.number;
      var key = hand.key ? unhex(hand.key) : null;
      if (secret) {
        var derived = new Uint8Array(await hmac(secret, "hearts hand " + n));
        if (key && hex(key) !== hex(derived)) { say("badDerived", { n: n }, false); ok = false; continue; }
        key = derived;
      }
      if (!key) { say("sealed", { n: n }, null); continue; }
      if ((await sha256(key)) !== hand.key_commitment) { say("badKey", { n: n }, false); ok = false; continue; }
      if (n > deals.length) { say("sealed", { n: n }, null); continue; }
      if (!(await dealMatches(options, key, deals[n - 1]))) { say("badDeal", { n: n }, false); ok = false; continue; }
      say("ok", { n: n }, true);
    }
    if (deals.length > hands.length) ok = false;
    say(ok ? "passed" : "failed", {}, ok);
    return ok;
  }

  var form = document.getElementById("verify-form");
  var result = document.getElementById("verify-result");
  if (!form || !result) return;

  function sayer() {
    var list = document.createElement("ul");
    result.replaceChildren(list);
    return function (name, values, good) {
      var text = form.dataset[name] || name;
      Object.keys(values).forEach(function (k) { text = text.replace("{" + k + "}", values[k]); });
      var item = document.createElement("li");
      item.textContent = text;
      item.className = good === true ? "verified" : good === false ? "failed" : "";
      list.appendChild(item);
      return good;
    };
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var say = sayer();
    delete result.dataset.done;
    function done(ok) { result.dataset.done = ok ? "passed" : "failed"; }
    if (!window.crypto || !crypto.subtle) { done(say("noCrypto", {}, false)); return; }
    var file = form.elements.file.files && form.elements.file.files[0];
    var read = file ? file.text() : Promise.resolve(form.elements.text.value);
    read.then(function (text) {
      var doc;
      try { doc = JSON.parse(text); } catch (e) { return say("unreadable", {}, false); }
      return check(doc, say);
    }).catch(function () { return say("unreadable", {}, false); }).then(done);
  });
})();
