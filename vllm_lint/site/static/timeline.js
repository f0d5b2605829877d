// Where a timeline is wider than the screen (a phone), scroll it so that its last removal or
// rename mark is in view; without JavaScript the timeline starts at the oldest release.
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll(".tl-scroll"), function (box) {
    if (box.scrollWidth <= box.clientWidth) return;
    var marks = box.querySelectorAll(".tl-removed, .tl-renamed");
    if (!marks.length) return;
    var line = marks[marks.length - 1], label = line.nextElementSibling;  // the mark's label follows it
    var a = line.getBoundingClientRect(), b = label ? label.getBoundingClientRect() : a;
    var left = Math.min(a.left, b.left), right = Math.max(a.right, b.right);
    var frame = box.getBoundingClientRect();
    box.scrollLeft += (left + right) / 2 - frame.left - box.clientWidth / 2;
  });
})();
