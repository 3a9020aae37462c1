// The little the page needs beyond htmx:
// - passing: at most three cards can be raised, and the pass button is enabled only when exactly
//   three are (UI-03, UI-04);
// - the keyboard: the arrow keys move the focus over the hand, Enter plays a card or raises it;
// - two taps to play a card on a touch screen, and why a shaded card may not be played.
(function () {
  "use strict";
  var NEEDED = 3;

  function refresh(form) {
    var checked = form.querySelectorAll("input[name=cards]:checked").length;
    var button = form.querySelector(".pass-button");
    if (!button) return;
    button.disabled = checked !== NEEDED;
    var count = button.querySelector(".count");
    if (count) count.textContent = "(" + checked + "/" + NEEDED + ")";
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    var form = box.closest && box.closest("form.pass-form");
    if (!form) return;
    if (box.checked && form.querySelectorAll("input[name=cards]:checked").length > NEEDED) {
      box.checked = false; // a fourth card stays down (UI-03)
    }
    refresh(form);
  });

  function focusables(hand) {
    return Array.prototype.filter.call(
      hand.querySelectorAll("button.card, input[name=cards]"),
      function (el) { return !el.disabled && el.getAttribute("aria-disabled") !== "true"; }
    );
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var hand = target.closest && target.closest(".cards");
    if (!hand) return;
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step) {
      var items = focusables(hand);
      var at = items.indexOf(target);
      if (at >= 0 && items.length) {
        items[(at + step + items.length) % items.length].focus();
        event.preventDefault();
      }
    } else if (event.key === "Enter" && target.matches("input[type=checkbox]")) {
      target.click(); // Enter raises or lowers a card, like a tap
      event.preventDefault();
    }
  });

  // Two taps to play (the Settings page: on touch screens by default, always, or never): the
  // first tap lifts the card, a second tap on it plays it, a tap on another card lifts that one
  // instead, a tap elsewhere puts it down. A click from the keyboard or a screen reader (no
  // pointer: `detail` 0) plays at once.
  var lastPointer = "mouse";
  document.addEventListener("pointerdown", function (event) {
    lastPointer = event.pointerType || "mouse";
  }, true);

  function twoTaps() {
    var body = document.body.classList;
    if (body.contains("two-taps-never")) return false;
    return body.contains("two-taps-always") || lastPointer === "touch";
  }

  function putDown(except) {
    document.querySelectorAll(".play-form .card.lifted").forEach(function (card) {
      if (card !== except) card.classList.remove("lifted");
    });
  }

  // A tap on a shaded card says why it may not be played (the engine's reason and rule).
  function explain(card) {
    var status = document.querySelector("#table .status");
    if (!status) return;
    var line = status.querySelector(".message");
    if (!line) {
      line = document.createElement("p");
      line.className = "message";
      line.setAttribute("role", "alert");
      status.insertBefore(line, status.firstChild);
    }
    line.textContent = card.getAttribute("data-why");
  }

  document.addEventListener("click", function (event) {
    var card = event.target.closest && event.target.closest(".play-form button.card");
    if (!card) { putDown(null); return; }
    if (card.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      putDown(null);
      explain(card);
      return;
    }
    if (card.disabled || event.detail === 0 || !twoTaps()) return;
    if (card.classList.contains("lifted")) return; // the second tap plays it
    event.preventDefault();
    putDown(card);
    card.classList.add("lifted");
  }, true);

  // While passing, the arrow on the table points from its middle to the seat that receives.
  function aim() {
    var arrow = document.querySelector("#table .pass-arrow");
    var seat = document.querySelector("#table .felt .seat.receives");
    if (!arrow || !seat) return;
    var felt = arrow.parentElement.getBoundingClientRect();
    var box = seat.getBoundingClientRect();
    var x = felt.left + felt.width * 0.5, y = felt.top + felt.height * 0.58;
    var dx = box.left + box.width / 2 - x, dy = box.top + box.height / 2 - y;
    var distance = Math.sqrt(dx * dx + dy * dy);
    if (!distance) return;
    // stop short of the box: its half-extent along the arrow, and the head's length
    var inside = (Math.abs(dx) * box.width / 2 + Math.abs(dy) * box.height / 2) / distance;
    var length = Math.max(24, distance - inside - 22);
    arrow.style.setProperty("--angle", Math.atan2(dy, dx) + "rad");
    arrow.style.setProperty("--length", length + "px");
    arrow.classList.add("aimed");
  }

  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    scope.querySelectorAll("form.pass-form").forEach(refresh);
    aim();
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.detail.elt); });
  window.addEventListener("resize", aim);
})();

// Playing out a move's answer, with cards that move. The server answers a decision with the
// final table plus the steps before it (`template.frame`: the trick as data in `data-trick`, the
// notes and prompt after each card, each seat's count, points and turn in `data-seats`, and the
// step's pause), the faces of the cards they put on the table (`template.faces`) and the side
// panels to show afterwards (`template.later`). The trick on the table before the answer stays
// on the page: from one state to the next, only the new cards move (from their player's seat, or
// from your hand, to the table) and a finished trick slides to its winner. A click anywhere (or
// a key) skips to the end; meanwhile the hand is inert. No motion under prefers-reduced-motion.
(function () {
  "use strict";
  var still = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var skipping = null;
  var previous = null; // the trick on the page when an answer comes, to carry on from
  var thrown = null;   // the card the player just played, and where it was
  var clearing = null; // the timer that sends a finished trick to its winner
  var running = [];    // animations a skip finishes at once

  function calm() { return !document.body.animate || (still !== null && still.matches); }
  function centre(r) { return [r.left + r.width / 2, r.top + r.height / 2]; }
  function state(el) {
    try { return JSON.parse(el.getAttribute("data-trick")); } catch (e) { return null; }
  }
  function track(animation) {
    running.push(animation);
    function done() {
      var at = running.indexOf(animation);
      if (at >= 0) running.splice(at, 1);
    }
    animation.addEventListener("finish", done);
    animation.addEventListener("cancel", done);
    return animation;
  }

  function announce(text) {
    var region = document.getElementById("announce");
    if (region && text) region.textContent = text;
  }

  // Seat index → [key, name] (data-names: "S:You|W:West|…").
  function labels(table) {
    return (table.getAttribute("data-names") || "").split("|").map(function (pair) {
      var at = pair.indexOf(":");
      return [pair.slice(0, at), pair.slice(at + 1)];
    });
  }

  // Where a seat's cards come from and where its tricks go: its box on the table, or your hand.
  function seatRect(table, key) {
    var box = table.querySelector('.seat[data-seat="' + key + '"]');
    if (!box) return null;
    if (box.classList.contains("you")) {
      var hand = box.querySelector(".cards") || box;
      var r = hand.getBoundingClientRect();
      return { left: r.left + r.width / 2 - 20, top: r.top, width: 40, height: 56 };
    }
    return (box.querySelector(".backs") || box).getBoundingClientRect();
  }

  function flyIn(table, el, seat, code, names, ms) {
    var face = el.querySelector(".face");
    if (calm() || !face || !ms) return;
    var from = null;
    if (thrown && thrown.code === code && names[seat] && names[seat][0] === thrown.seat) {
      from = thrown.rect;
      thrown = null;
    } else if (names[seat]) {
      from = seatRect(table, names[seat][0]);
    }
    if (!from) return;
    var to = face.getBoundingClientRect();
    if (!to.width) return;
    var a = centre(from), b = centre(to);
    var scale = Math.max(0.3, Math.min(1.6, from.width / to.width));
    var timing = { duration: ms, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" };
    track(el.animate([{ translate: (a[0] - b[0]) + "px " + (a[1] - b[1]) + "px" },
                      { translate: "0px 0px" }], timing));
    track(face.animate([{ scale: scale, opacity: 0.75 }, { scale: 1, opacity: 1 }], timing));
  }

  // The cards of a trick leave the table: to the winner's seat, or (no winner: they wait for
  // the next trick's winner; another hand) they fade where they are.
  function sweep(table, cards, to, ms) {
    var layer = document.getElementById("flying");
    if (!layer && !calm()) {
      layer = document.createElement("div");
      layer.id = "flying";
      layer.setAttribute("aria-hidden", "true");
      document.body.appendChild(layer);
    }
    cards.forEach(function (el) {
      var face = el.querySelector(".face");
      var r = face ? face.getBoundingClientRect() : null;
      el.remove();
      if (calm() || !ms || !layer || !r || !r.width) return;
      var ghost = face.cloneNode(true);
      ghost.classList.add("ghost");
      ghost.style.left = r.left + "px";
      ghost.style.top = r.top + "px";
      ghost.style.width = r.width + "px";
      ghost.style.height = r.height + "px";
      layer.appendChild(ghost);
      var a = centre(r), b = to ? centre(to) : a;
      var animation = track(ghost.animate([
        { translate: "0px 0px", scale: 1, opacity: 1 },
        { translate: (b[0] - a[0]) + "px " + (b[1] - a[1]) + "px", scale: to ? 0.4 : 0.9,
          opacity: 0 }
      ], { duration: ms, easing: "ease-in", fill: "forwards" }));
      animation.addEventListener("finish", function () { ghost.remove(); });
    });
  }

  function make(sources, code, seat, names) {
    var source = sources[code];
    if (!source) return null;
    var el = source.cloneNode(true);
    el.className = "played slot-" + seat;
    var name = names[seat] ? names[seat][1] : "";
    el.title = name;
    var by = el.querySelector(".by");
    if (by) by.textContent = name;
    return el;
  }

  // Show `next` ([hand, trick, clears, [[seat, card, flags], …]]) on the trick element: the
  // cards already there stay still, the new ones fly in, those gone leave the table.
  function show(table, trick, next, sources, motion) {
    var names = labels(table);
    var now = state(trick) || [null, null, 0, []];
    var same = now[0] === next[0] && now[1] === next[1];
    var here = {};
    var gone = [];
    Array.prototype.forEach.call(trick.querySelectorAll(":scope > .played"), function (el) {
      var seat = parseInt((el.className.match(/\bslot-(\d+)/) || [])[1], 10);
      if (same && here[seat] === undefined) here[seat] = el; else gone.push(el);
    });
    // Where the cards that stay are now: when the trick is laid out in a row (many seats, a
    // phone), a new card moves them, and they slide to their new places.
    var stay = Object.keys(here).map(function (seat) {
      return [here[seat], here[seat].getBoundingClientRect()];
    });
    var fresh = [];
    next[3].forEach(function (play) {
      var seat = play[0], code = play[1], flags = play[2];
      var el = here[seat];
      delete here[seat];
      if (el && el.getAttribute("data-played") !== code) { gone.push(el); el = null; }
      if (!el) {  // a new card goes last: the cards of a trick come in play order
        el = make(sources, code, seat, names);
        if (!el) return;
        trick.appendChild(el);
        fresh.push([el, seat, code]);
      }
      el.classList.toggle("winner", (flags & 1) === 1);
      el.classList.toggle("cancelled", (flags & 2) === 2);
    });
    Object.keys(here).forEach(function (seat) { gone.push(here[seat]); });
    if (gone.length) {
      var winner = now[3].filter(function (play) { return play[2] & 1; })[0];
      var to = winner && now[0] === next[0] && names[winner[0]] ?
        seatRect(table, names[winner[0]][0]) : null;
      sweep(table, gone, to, motion ? motion.sweep : 0);
    }
    trick.classList.toggle("finished", next[2] === 1);
    trick.setAttribute("data-trick", JSON.stringify(next));
    fresh.forEach(function (item) {
      flyIn(table, item[0], item[1], item[2], names, motion ? motion.card : 0);
    });
    if (motion && !calm()) {
      stay.forEach(function (item) {
        if (!item[0].isConnected) return;
        var r = item[0].getBoundingClientRect();
        var dx = item[1].left - r.left, dy = item[1].top - r.top;
        if (Math.abs(dx) + Math.abs(dy) < 1) return;
        track(item[0].animate([{ translate: dx + "px " + dy + "px" }, { translate: "0px 0px" }],
                              { duration: motion.card, easing: "ease-out" }));
      });
    }
  }

  // Quiet sounds (the Settings page; off by default): a soft chime when it is your turn to
  // play after the others' cards, a low note when the queen of spades is taken. Made by the
  // browser (Web Audio), nothing to download.
  var audio = null;
  function sound(notes) {
    if (!document.body.classList.contains("sounds")) return;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      if (audio.state === "suspended") audio.resume();
      var at = audio.currentTime + 0.01;
      notes.forEach(function (note) {
        var tone = audio.createOscillator(), level = audio.createGain();
        tone.type = note[2];
        tone.frequency.value = note[0];
        level.gain.setValueAtTime(0.0001, at);
        level.gain.exponentialRampToValueAtTime(note[3], at + 0.015);
        level.gain.exponentialRampToValueAtTime(0.0001, at + note[1]);
        tone.connect(level).connect(audio.destination);
        tone.start(at);
        tone.stop(at + note[1] + 0.02);
        at += note[1] * 0.8;
      });
    } catch (e) { /* no sound is no harm */ }
  }
  var YOUR_TURN = [[660, 0.12, "sine", 0.05], [880, 0.16, "sine", 0.04]];
  var QUEEN = [[196, 0.22, "triangle", 0.07], [147, 0.32, "triangle", 0.06]];
  // The browser lets a page make sounds once the visitor has touched it.
  document.addEventListener("pointerdown", function () {
    if (audio && audio.state === "suspended") audio.resume();
  }, true);

  function setSeats(table, states) {
    states.forEach(function (seat) {
      var box = table.querySelector('.seat[data-seat="' + seat[0] + '"]');
      if (!box) return;
      box.classList.toggle("to-act", seat[3] === 1);
      box.classList.toggle("moon-watched", seat[5] === 1);
      var moon = box.querySelector(".moon-watch");
      if (moon) moon.hidden = seat[5] !== 1;
      var queen = box.querySelector(".queen-taken");
      if (queen) {
        queen.hidden = !seat[4];
        queen.querySelector(".times").textContent = seat[4] > 1 ? "\u00d7" + seat[4] : "";
      }
      var points = box.querySelector(".points");
      if (points) points.textContent = "\u2665" + seat[2];
      var backs = box.querySelector(".backs");
      if (!backs) return;
      var count = backs.querySelector(".count");
      if (count) count.textContent = seat[1];
      var shown = backs.querySelectorAll(".back");
      var wanted = Math.min(8, seat[1]);
      for (var i = shown.length; i > wanted; i--) shown[i - 1].remove();
      for (var j = shown.length; j < wanted; j++) {
        var back = document.createElement("span");
        back.className = "back";
        back.setAttribute("aria-hidden", "true");
        backs.insertBefore(back, count);
      }
    });
  }

  function seatStates(el) {
    try { return JSON.parse(el.getAttribute("data-seats") || "[]"); } catch (e) { return []; }
  }

  function play(table) {
    if (skipping) skipping();
    clearTimeout(clearing);
    var felt = table.querySelector(":scope > .felt");
    var trick = felt && felt.querySelector(":scope > .trick");
    var carried = previous;
    previous = null;
    if (!trick) return;
    var end = state(trick);
    var endPause = parseInt(trick.getAttribute("data-pause"), 10) || 0;
    var endSeats = seatStates(trick);
    var fast = table.classList.contains("fast");
    var motion = { card: fast ? 160 : 280, sweep: fast ? 220 : 420 };
    var sources = {};
    table.querySelectorAll("template.faces").forEach(function (faces) {
      Array.prototype.forEach.call(faces.content.children, function (el) {
        sources[el.getAttribute("data-played")] = el;
      });
    });
    trick.querySelectorAll(":scope > .played").forEach(function (el) {
      var copy = el.cloneNode(true);
      copy.classList.remove("new");
      sources[el.getAttribute("data-played")] = copy;
    });
    // Carry on from the trick the page showed: its cards stay where they are.
    if (carried && carried !== trick && end) {
      carried.querySelectorAll(".new").forEach(function (el) { el.classList.remove("new"); });
      trick.replaceWith(carried);
      trick = carried;
    }
    trick.classList.add("moving"); // this script clears it, not the stylesheet
    var frames = Array.prototype.slice.call(table.querySelectorAll("template.frame"));
    var later = table.querySelector("template.later");
    var hand = table.querySelector("form.hand");
    var results = Array.prototype.slice.call(felt.querySelectorAll(":scope > .result"));
    var notes = Array.prototype.slice.call(felt.querySelectorAll(":scope > .table-info"));
    var prompt = table.querySelector(".status .prompt");
    var timer = null, i = 0;
    // The queens of spades taken so far, as the page showed them before the answer.
    var queens = carried ? total(seatStates(carried)) : null;
    trick.setAttribute("data-seats", JSON.stringify(endSeats));

    function total(states) {
      return states.reduce(function (sum, seat) { return sum + (seat[4] || 0); }, 0);
    }

    function queensTaken(states) {
      var now = total(states);
      if (queens !== null && now > queens) sound(QUEEN);
      queens = now;
    }

    function replaceNotes(fresh) {
      felt.querySelectorAll(":scope > .table-info").forEach(function (el) { el.remove(); });
      trick.after.apply(trick, fresh);
    }

    function finish(instant) {
      clearTimeout(timer);
      skipping = null;
      document.removeEventListener("click", skip, true);
      document.removeEventListener("keydown", skip, true);
      if (instant) running.slice().forEach(function (a) { a.finish(); });
      if (end) show(table, trick, end, sources, instant ? null : motion);
      if (frames.length) {
        replaceNotes(notes);
        var shown = table.querySelector(".status .prompt");
        if (shown && prompt && shown !== prompt) shown.replaceWith(prompt);
        setSeats(table, endSeats);
        results.forEach(function (el) { el.hidden = false; });
      }
      document.body.classList.remove("replaying");
      if (hand) hand.inert = false;
      if (later) {  // the score sheet and this hand's tricks, replaced by id
        Array.prototype.forEach.call(later.content.children, function (next) {
          var old = next.id && document.getElementById(next.id);
          if (old) old.replaceWith(document.importNode(next, true));
        });
        later.remove();
      }
      frames.forEach(function (frame) { frame.remove(); });
      table.querySelectorAll("template.faces").forEach(function (el) { el.remove(); });
      announce(table.getAttribute("data-announce"));
      var focus = table.querySelector("[autofocus]");
      if (focus && frames.length) focus.focus();
      queensTaken(endSeats);
      if (carried && frames.length && table.querySelector(".seat.you.to-act .play-form")) {
        sound(YOUR_TURN);
      }
      // A finished trick goes to its winner after its pause (unless the page moves on first).
      if (end && end[2] === 1) {
        clearing = setTimeout(function () {
          if (trick.isConnected) show(table, trick, [end[0], end[1], 0, []], sources, motion);
        }, endPause);
      }
    }

    function skip(event) {
      if (event.type === "click" && table.contains(event.target)) {
        event.preventDefault();
        event.stopPropagation();
      }
      finish(true);
    }

    function step() {
      if (i >= frames.length) { finish(false); return; }
      var frame = frames[i++];
      var content = frame.content.cloneNode(true);
      var next = state(frame);
      if (next) show(table, trick, next, sources, motion);
      replaceNotes(Array.prototype.slice.call(content.querySelectorAll(".table-info")));
      var stepPrompt = content.querySelector(".prompt");
      var shown = table.querySelector(".status .prompt");
      if (stepPrompt && shown) shown.replaceWith(stepPrompt);
      setSeats(table, seatStates(frame));
      queensTaken(seatStates(frame));
      announce(frame.getAttribute("data-announce"));
      timer = setTimeout(step, parseInt(frame.getAttribute("data-pause"), 10) || 0);
    }

    if (!frames.length) { finish(false); return; }
    // Play the steps on the table without its result panel and its final notes and prompt;
    // they come back at the end.
    results.forEach(function (el) { el.hidden = true; });
    notes.forEach(function (el) { el.remove(); });
    // On the body: htmx puts the table's own class back when the swap settles, mid-steps.
    document.body.classList.add("replaying");
    if (hand) hand.inert = true;
    skipping = function () { finish(true); };
    document.addEventListener("click", skip, true);
    document.addEventListener("keydown", skip, true);
    step();
  }

  // The card the player plays, and where it was: it flies from there to the table.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    var submitter = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent ?
      event.detail.requestConfig.triggeringEvent.submitter : null;
    thrown = null;
    if (form && form.matches && form.matches("form.play-form") && submitter &&
        submitter.matches("button.card")) {
      var you = document.querySelector("#table .seat.you");
      var face = submitter.querySelector(".face") || submitter;
      thrown = { code: submitter.value, seat: you ? you.getAttribute("data-seat") : null,
                 rect: face.getBoundingClientRect() };
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.shouldSwap) return;
    var shown = document.querySelector("#table > .felt > .trick");
    previous = shown && shown.hasAttribute("data-trick") ? shown : null;
  });

  // Start in the same task as the swap (htmx:afterSwap), before the browser paints the final
  // table; htmx:load (after the settle delay) is the fallback. Each table is played once.
  function start() {
    var table = document.getElementById("table");
    if (table && !table.heartsPlayed) {
      table.heartsPlayed = true;
      play(table);
    }
  }
  document.addEventListener("htmx:afterSwap", start);
  document.addEventListener("htmx:load", start);
})();

// A request that fails (the network, a 5xx, or 429 "too many requests") is retried with
// backoff while the page says so; the table is inert meanwhile, so nothing is sent twice.
// A retried move is safe: the server answers a decision it already applied as if it had just
// applied it.
(function () {
  "use strict";
  var attempt = 0;

  function banner(show) {
    var box = document.getElementById("retrying");
    if (box) box.hidden = !show;
    var table = document.getElementById("table");
    if (table) table.inert = show;
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    var status = detail.xhr ? detail.xhr.status : 0;
    var config = detail.requestConfig;
    var failed = status === 0 || status === 429 || status >= 500;
    if (!failed || !config) {
      if (attempt) banner(false);
      attempt = 0;
      return;
    }
    banner(true);
    var wait = Math.min(10000, 1000 * Math.pow(2, attempt));
    var after = parseInt(detail.xhr && detail.xhr.getResponseHeader("Retry-After"), 10);
    if (after > 0) wait = Math.max(wait, Math.min(after, 30) * 1000);
    attempt += 1;
    var source = detail.elt;
    setTimeout(function () {
      if (!document.body.contains(source)) source = document.getElementById("table");
      var sent = htmx.ajax(config.verb.toUpperCase(), config.path, {
        source: source,
        target: "#table",
        swap: "outerHTML",
        values: config.formData
      });
      // A failed retry is handled above (htmx:afterRequest); its promise's rejection is not an
      // error of the page.
      if (sent && sent.catch) sent.catch(function () {});
    }, wait + Math.random() * wait * 0.3);
  });
})();

// A form post the server refused for now (busy, or too fast) comes back as a page holding the
// same form: post it again once the `Retry-After` seconds have passed. The refused post changed
// nothing, so nothing happens twice.
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.resubmit[data-resubmit-after]");
    if (!form) return;
    var seconds = parseInt(form.getAttribute("data-resubmit-after"), 10);
    if (!(seconds > 0)) return;
    setTimeout(function () { form.submit(); }, seconds * 1000);
  });
})();

// The hint: the H key asks for it (as the Hint button does), and the cards it advises are marked
// in the hand until the table changes.
(function () {
  "use strict";

  document.addEventListener("keydown", function (event) {
    if ((event.key !== "h" && event.key !== "H") || event.ctrlKey || event.metaKey ||
        event.altKey) return;
    var target = event.target;
    if (target.matches && target.matches("input[type=text], input[type=search], textarea, select")) {
      return;
    }
    var button = document.querySelector("#table .coach-button");
    if (button && !button.disabled && !button.closest("[inert]")) {
      button.click();
      event.preventDefault();
    }
  });

  function mark() {
    var box = document.querySelector("#coach .coach-box");
    if (!box) return;
    var taken = [];
    (box.getAttribute("data-cards") || "").split(" ").forEach(function (code) {
      var cards = document.querySelectorAll('#table .cards [data-card="' + code + '"]');
      for (var i = 0; i < cards.length; i++) {
        if (taken.indexOf(cards[i]) < 0) { // two identical cards: each advised one once
          taken.push(cards[i]);
          cards[i].classList.add("hinted");
          break;
        }
      }
    });
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.id === "coach") mark();
  });
  document.addEventListener("DOMContentLoaded", mark);
})();

// A deal code's Copy button (shown only where the clipboard can be written).
(function () {
  "use strict";

  function show() {
    if (!navigator.clipboard || !window.isSecureContext) return;
    document.querySelectorAll(".copy-code[hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".copy-code");
    if (!button) return;
    var code = button.parentNode.querySelector("[data-code]");
    if (!code) return;
    navigator.clipboard.writeText(code.getAttribute("data-code")).then(function () {
      button.textContent = button.getAttribute("data-copied");
    });
  });

  document.addEventListener("DOMContentLoaded", show);
  document.addEventListener("htmx:afterSwap", show);
})();
