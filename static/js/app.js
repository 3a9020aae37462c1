// The little the page needs beyond htmx:
// - passing: at most three cards can be raised, and the pass button is enabled only when exactly
//   three are (UI-03, UI-04);
// - the keyboard: the arrow keys move the focus over the hand, Enter plays a card or raises it.
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
      function (el) { return !el.disabled; }
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

  function init(root) {
    var scope = root && root.querySelectorAll ? root : document;
    scope.querySelectorAll("form.pass-form").forEach(refresh);
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.detail.elt); });
})();
