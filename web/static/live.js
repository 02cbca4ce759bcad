// live.js: live updates of the page (server-sent events); see web/live.go.
//
// A page whose <main> carries data-live="/events/{slug}/live" listens to
// that stream. On each "change" it fetches itself again and swaps in the
// new content of <main>, keeping the scroll position and focus, and says
// so through a polite live region. It never replaces the content while
// the user is typing in (or has changed) a form field: the refresh waits
// until they leave the form. Without EventSource, fetch or DOMParser it
// does nothing: every page is complete as the server sends it.
(function () {
  "use strict";
  var main = document.querySelector("main[data-live]");
  if (!main || typeof window.EventSource !== "function" || typeof window.fetch !== "function" ||
      typeof window.DOMParser !== "function") {
    return;
  }
  var url = main.getAttribute("data-live");
  var source = null;       // the open EventSource
  var pending = false;     // a change not shown yet
  var busy = false;        // a refresh is under way
  var waiting = false;     // listening for the user to leave the form
  var told = false;        // the user was told that a change waits
  var refreshOnOpen = false;
  var reopenTimer = 0;
  var reopenDelay = 30000; // after the server refused the stream (busy)
  var hiddenTimer = 0;
  var waitTimer = 0;

  // The announcer sits outside <main>, which refreshes replace.
  var status = document.createElement("div");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  document.body.appendChild(status);

  function announce(text) {
    status.textContent = "";
    // Setting the text after clearing it makes screen readers read it
    // again when it repeats.
    setTimeout(function () { status.textContent = text; }, 100);
  }

  function changed(field) {
    var t = field.type;
    if (t === "checkbox" || t === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      for (var i = 0; i < field.options.length; i++) {
        var o = field.options[i];
        // With no option marked selected, the first one shows by default.
        var initial = o.defaultSelected || (i === 0 && !field.multiple && !field.querySelector("option[selected]"));
        if (o.selected !== initial) {
          return true;
        }
      }
      return false;
    }
    if (t === "hidden" || t === "submit" || t === "button" || t === "reset" || t === "file") {
      return t === "file" && field.value !== "";
    }
    return field.value !== field.defaultValue;
  }

  // editing is true while replacing <main> would lose the user's input
  // or place: a field of it has focus or differs from what was served.
  function editing() {
    var a = document.activeElement;
    if (a && a !== main && main.contains(a) && a.matches("input, textarea, select, [contenteditable]")) {
      return true;
    }
    var fields = main.querySelectorAll("input, textarea, select");
    for (var i = 0; i < fields.length; i++) {
      if (changed(fields[i])) {
        return true;
      }
    }
    return false;
  }

  function wait() {
    pending = true;
    if (!told) {
      told = true;
      announce("This page has changed. It will update when you leave the form, or reload it.");
    }
    if (!waiting) {
      waiting = true;
      main.addEventListener("focusout", retry);
      main.addEventListener("change", retry);
      main.addEventListener("reset", retry);
      // Fields can also go back to what was served without an event
      // (scripts, autofill): look again now and then.
      waitTimer = setInterval(retry, 5000);
    }
  }

  function retry() {
    // After focusout, activeElement is only settled on the next task.
    setTimeout(function () {
      if (pending && !editing()) {
        refresh();
      }
    }, 0);
  }

  function refresh() {
    if (busy) {
      return; // the refresh under way looks at pending when it ends
    }
    if (editing()) {
      wait();
      return;
    }
    pending = false;
    busy = true;
    fetch(location.href, {credentials: "same-origin", cache: "no-store", headers: {"Accept": "text/html"}})
      .then(function (res) {
        var type = res.headers.get("Content-Type") || "";
        // A redirect (signed out) or an error page is not this page.
        if (!res.ok || res.redirected || type.indexOf("text/html") !== 0) {
          return null;
        }
        return res.text();
      })
      .then(function (html) {
        if (html !== null) {
          swap(html);
        }
      })
      .catch(function () {
        // Keep the page as it is; the next change tries again.
      })
      .then(function () {
        busy = false;
        if (pending && !waiting) {
          refresh();
        }
      });
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("main");
    if (!fresh) {
      return;
    }
    if (editing()) { // the user started typing while the page loaded
      wait();
      return;
    }
    var x = window.scrollX, y = window.scrollY;
    var active = document.activeElement;
    var focusInside = active && main.contains(active);
    var activeID = focusInside && active !== main ? active.id : "";
    var wraps = main.querySelectorAll(".table-wrap");
    var lefts = [];
    for (var i = 0; i < wraps.length; i++) {
      lefts.push(wraps[i].scrollLeft);
    }
    // A flash message is shown once by the server: keep it on screen.
    var flash = main.querySelector(".flash");

    var nodes = [];
    for (var n = fresh.firstChild; n; n = n.nextSibling) {
      nodes.push(document.importNode(n, true));
    }
    main.replaceChildren.apply(main, nodes);

    if (flash && !main.querySelector(".flash")) {
      var h1 = main.querySelector("h1");
      if (h1) {
        h1.after(flash);
      } else {
        main.prepend(flash);
      }
    }
    wraps = main.querySelectorAll(".table-wrap");
    for (var j = 0; j < wraps.length && j < lefts.length; j++) {
      wraps[j].scrollLeft = lefts[j];
    }
    if (doc.title) {
      document.title = doc.title;
    }
    if (focusInside) {
      var target = (activeID && document.getElementById(activeID)) || main;
      target.focus({preventScroll: true});
    }
    window.scrollTo(x, y);
    if (window.htmx && typeof window.htmx.process === "function") {
      window.htmx.process(main);
    }
    told = false;
    if (waiting) {
      waiting = false;
      clearInterval(waitTimer);
      main.removeEventListener("focusout", retry);
      main.removeEventListener("change", retry);
      main.removeEventListener("reset", retry);
    }
    announce("Page updated.");
    var next = fresh.getAttribute("data-live");
    if (next !== url) { // the page no longer follows the same stream
      close();
      url = next;
      if (url) {
        open();
      }
    }
  }

  function open() {
    clearTimeout(reopenTimer);
    var es = new EventSource(url);
    source = es;
    es.addEventListener("change", function () {
      pending = true;
      refresh();
    });
    es.addEventListener("open", function () {
      reopenDelay = 30000;
      if (refreshOnOpen) { // changes may have happened while closed
        refreshOnOpen = false;
        pending = true;
        refresh();
      }
    });
    es.addEventListener("error", function () {
      // The browser reconnects by itself, sending Last-Event-ID, unless
      // the server refused the stream (503 when it has too many): then
      // try again later, and refresh then since nothing was followed.
      if (es.readyState === EventSource.CLOSED && source === es) {
        source = null;
        refreshOnOpen = true;
        reopenTimer = setTimeout(open, reopenDelay * (0.5 + Math.random()));
        reopenDelay = Math.min(reopenDelay * 2, 300000);
      }
    });
  }

  function close() {
    clearTimeout(reopenTimer);
    if (source) {
      source.close();
      source = null;
    }
  }

  // A tab left in the background for a minute gives its stream back; it
  // refreshes when it is shown again.
  document.addEventListener("visibilitychange", function () {
    clearTimeout(hiddenTimer);
    if (document.hidden) {
      hiddenTimer = setTimeout(function () {
        if (source) {
          close();
          refreshOnOpen = true;
        }
      }, 60000);
    } else if (!source && url) {
      open();
    }
  });
  window.addEventListener("pagehide", function () {
    if (source) {
      close();
      refreshOnOpen = true;
    }
  });
  window.addEventListener("pageshow", function (e) {
    if (e.persisted && !source && url) { // back from the back-forward cache
      open();
    }
  });

  open();
}());
