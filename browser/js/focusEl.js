// focusEl.js focuses an element without the mouse.
(function () { this.focus(); return this.getRootNode().activeElement === this; })
