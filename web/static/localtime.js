// localtime.js: shows every <time datetime="..." data-local> (or any
// <time datetime> inside an element marked data-local) also in the
// reader's own time zone, beside the UTC text the server wrote. Without
// JavaScript the page keeps the UTC times only. Content swapped in later
// (live updates with htmx) is handled too.
(function () {
  "use strict";
  var fmt;
  try {
    fmt = new Intl.DateTimeFormat(undefined, {
      weekday: "short", day: "numeric", month: "short",
      hour: "2-digit", minute: "2-digit", timeZoneName: "short"
    });
  } catch (e) {
    return;
  }
  function annotate(root) {
    if (!root || !root.querySelectorAll) {
      return;
    }
    var times = root.querySelectorAll("time[datetime][data-local], [data-local] time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var t = times[i];
      if (t.hasAttribute("data-local-done")) {
        continue;
      }
      var d = new Date(t.getAttribute("datetime"));
      // A reader on UTC already reads their own time.
      if (isNaN(d.getTime()) || d.getTimezoneOffset() === 0) {
        continue;
      }
      var span = document.createElement("span");
      span.className = "localtime";
      span.textContent = " (" + fmt.format(d) + ", your time)";
      t.insertAdjacentElement("afterend", span);
      t.setAttribute("data-local-done", "");
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { annotate(document); });
  } else {
    annotate(document);
  }
  document.addEventListener("htmx:load", function (e) { annotate(e.target); });
})();
