// The result form (templates/_entry.html) from the keyboard: typing a
// result in a cell moves on to the next; arrows move around, Backspace
// clears, and on an empty cell steps back. After each change the form is
// checked by the server (POST data-check: the same scoring and rules as
// the report):
// the running totals, the clinch and the rule that would refuse the
// sheet, shown next to its cell. Nothing here decides a rule.
(function () {
  "use strict";
  var keys = { "1": "1", "=": "=", "d": "=", "½": "=", "0": "0", "+": "+" };

  function init(form) {
    var cells = Array.prototype.slice.call(form.querySelectorAll("input.entry-cell"));
    var timer = null, seq = 0;

    function move(cell, by) {
      var i = cells.indexOf(cell) + by;
      if (i >= 0 && i < cells.length) { cells[i].focus(); cells[i].select(); }
    }
    function changed() {
      clearTimeout(timer);
      timer = setTimeout(check, 150);
    }
    cells.forEach(function (cell) {
      // What is typed arrives as input (a keyboard, a phone's keyboard, a
      // paste alike): a result fills the cell and moves on.
      cell.addEventListener("focus", function () { cell.dataset.prev = cell.value; cell.select(); });
      cell.addEventListener("input", function (e) {
        var prev = cell.dataset.prev || "";
        var ch = (e.data || cell.value).slice(-1);
        if (cell.value === "") {
          cell.dataset.prev = "";
        } else if (keys[ch] !== undefined) {
          cell.value = cell.dataset.prev = keys[ch];
          move(cell, 1);
        } else if (ch === "-") {
          cell.value = cell.dataset.prev = prev === "-" ? "--" : "-";
          if (cell.value === "--") { move(cell, 1); }
        } else {
          cell.value = prev; // nothing else goes in a cell
          return;
        }
        changed();
      });
      cell.addEventListener("keydown", function (e) {
        if (e.ctrlKey || e.metaKey || e.altKey) { return; }
        var k = e.key;
        if (k === "Backspace" && cell.value === "") {
          e.preventDefault(); move(cell, -1);
        } else if (k === "ArrowRight" || k === " ") {
          e.preventDefault(); move(cell, 1);
        } else if (k === "ArrowLeft") {
          e.preventDefault(); move(cell, -1);
        }
      });
    });
    form.addEventListener("change", changed);

    function show(slot, problem) {
      form.querySelectorAll(".entry-error").forEach(function (p) {
        if (p.id !== slot) { p.hidden = true; p.textContent = ""; }
      });
      form.querySelectorAll("[aria-invalid]").forEach(function (c) {
        c.removeAttribute("aria-invalid"); c.removeAttribute("aria-describedby");
      });
      if (!problem || problem.incomplete) { return; }
      var p = form.querySelector("#" + slot) || form.querySelector("#err-form");
      p.textContent = problem.message + (problem.clause ? " (" + problem.clause + ")" : "");
      p.hidden = false;
      var c = problem.cell && form.querySelector('[name="' + problem.cell + '"]');
      if (c) { c.setAttribute("aria-invalid", "true"); c.setAttribute("aria-describedby", p.id); }
    }

    function check() {
      var mine = ++seq;
      var body = new URLSearchParams(new FormData(form));
      fetch(form.dataset.check, { method: "POST", body: body, credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (a) {
          if (mine !== seq) { return; } // an older answer
          if (a.error) { show("err-form", { message: a.error.message }); return; }
          form.querySelectorAll("output.entry-total").forEach(function (o) { o.textContent = a.totals[o.id] || ""; });
          form.querySelectorAll("input.entry-cell.decided").forEach(function (c) { c.classList.remove("decided"); });
          var d = a.clinched && form.querySelector('[name="' + a.clinched + '"]');
          if (d) { d.classList.add("decided"); }
          var status = a.status || "";
          if (a.problem && a.problem.incomplete) {
            status += " Still to enter: " + a.problem.message + (a.problem.clause ? " (" + a.problem.clause + ")" : "");
          }
          if (a.outcome) { status += " " + a.outcome; }
          form.querySelector(".entry-status").textContent = status;
          show(a.problem ? a.problem.slot : "", a.problem);
        })
        .catch(function () { /* the server re-checks on sending */ });
    }
    if (form.dataset.check) { check(); }
  }

  function start() { document.querySelectorAll("form.entry").forEach(init); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
