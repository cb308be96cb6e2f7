// sliderInner.js returns the slider inside an element.
(function () { return this.querySelector('input[type=range],[role=slider]'); })
