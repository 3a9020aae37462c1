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

  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    scope.querySelectorAll("form.pass-form").forEach(refresh);
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.detail.elt); });
})();

// Playing out a move's answer. The server answers a decision with the final table plus the
// steps before it (`template.frame`: the trick and notes and the prompt after each card, each
// seat's count, points and turn in `data-seats`, and the step's pause) and the side panels to
// show afterwards (`template.later`). The steps are shown one after another on a copy of the
// table; a click anywhere (or a key) skips to the end; meanwhile the hand is inert.
(function () {
  "use strict";
  var skipping = null;

  function announce(text) {
    var region = document.getElementById("announce");
    if (region && text) region.textContent = text;
  }

  function setSeats(table, states) {
    states.forEach(function (state) {
      var box = table.querySelector('.seat[data-seat="' + state[0] + '"]');
      if (!box) return;
      box.classList.toggle("to-act", state[3] === 1);
      var queen = box.querySelector(".queen-taken");
      if (queen) {
        queen.hidden = !state[4];
        queen.querySelector(".times").textContent = state[4] > 1 ? "\u00d7" + state[4] : "";
      }
      var points = box.querySelector(".points");
      if (points) points.textContent = "\u2665" + state[2];
      var backs = box.querySelector(".backs");
      if (!backs) return;
      var count = backs.querySelector(".count");
      if (count) count.textContent = state[1];
      var shown = backs.querySelectorAll(".back");
      var wanted = Math.min(8, state[1]);
      for (var i = shown.length; i > wanted; i--) shown[i - 1].remove();
      for (var j = shown.length; j < wanted; j++) {
        var back = document.createElement("span");
        back.className = "back";
        back.setAttribute("aria-hidden", "true");
        backs.insertBefore(back, count);
      }
    });
  }

  function replaceAll(scope, selector, fresh) {
    var old = scope.querySelectorAll(selector);
    if (old.length) {
      old[0].replaceWith.apply(old[0], fresh);
      for (var i = 1; i < old.length; i++) old[i].remove();
    }
  }

  function play(table) {
    if (skipping) skipping();
    var frames = Array.prototype.slice.call(table.querySelectorAll("template.frame"));
    var later = table.querySelector("template.later");
    var felt = table.querySelector(":scope > .felt");
    var you = table.querySelector(".seat.you");
    var prompt = table.querySelector(".status .prompt");
    var hand = table.querySelector("form.hand");
    var final = null, finalYou = null, finalPoints = null, finalQueen = null;
    var finalPrompt = prompt;
    var timer = null, i = 0;

    function finish() {
      clearTimeout(timer);
      skipping = null;
      document.removeEventListener("click", skip, true);
      document.removeEventListener("keydown", skip, true);
      if (final) {
        felt.replaceWith(final);
        felt = final;
        you.className = finalYou;
        var points = you.querySelector(".points");
        if (points && finalPoints !== null) points.textContent = finalPoints;
        var queen = you.querySelector(".queen-taken");
        if (queen && finalQueen) {
          queen.hidden = finalQueen[0];
          queen.querySelector(".times").textContent = finalQueen[1];
        }
        var shownPrompt = table.querySelector(".status .prompt");
        if (shownPrompt && finalPrompt) shownPrompt.replaceWith(finalPrompt);
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
      announce(table.getAttribute("data-announce"));
      var focus = table.querySelector("[autofocus]");
      if (focus && frames.length) focus.focus();
    }

    function skip(event) {
      if (event.type === "click" && table.contains(event.target)) {
        event.preventDefault();
        event.stopPropagation();
      }
      finish();
    }

    function step() {
      if (i >= frames.length) { finish(); return; }
      var frame = frames[i++];
      var content = frame.content.cloneNode(true);
      var trick = content.querySelector(".trick");
      var notes = content.querySelectorAll(".table-info");
      var stepPrompt = content.querySelector(".prompt");
      felt.querySelectorAll(".table-info").forEach(function (el) { el.remove(); });
      if (trick) replaceAll(felt, ".trick", [trick].concat(Array.prototype.slice.call(notes)));
      if (stepPrompt) replaceAll(table, ".status .prompt", [stepPrompt]);
      setSeats(table, JSON.parse(frame.getAttribute("data-seats") || "[]"));
      announce(frame.getAttribute("data-announce"));
      timer = setTimeout(step, parseInt(frame.getAttribute("data-pause"), 10) || 0);
    }

    if (!frames.length || !felt || !you) { finish(); return; }
    // Play the steps on a copy of the table without its result panel; the final table (and the
    // player's own seat as it ends) comes back at the end.
    final = felt;
    finalYou = you.className;
    var ownPoints = you.querySelector(".points");
    finalPoints = ownPoints ? ownPoints.textContent : null;
    var ownQueen = you.querySelector(".queen-taken");
    finalQueen = ownQueen ? [ownQueen.hidden, ownQueen.querySelector(".times").textContent] : null;
    felt = final.cloneNode(true);
    felt.querySelectorAll(".result").forEach(function (el) { el.remove(); });
    final.replaceWith(felt);
    // On the body: htmx puts the table's own class back when the swap settles, mid-steps.
    document.body.classList.add("replaying");
    if (hand) hand.inert = true;
    skipping = finish;
    document.addEventListener("click", skip, true);
    document.addEventListener("keydown", skip, true);
    step();
  }

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
