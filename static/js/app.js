// Passing: at most three cards can be raised, and the pass button is enabled only when exactly
// three are. Everything else on the page is plain forms driven by htmx.
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

  function init(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("form.pass-form").forEach(refresh);
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (event) { init(event.detail.elt); });
})();
