// masker() makes the wrappers a document-start program puts on the page's
// built-in functions (addEventListener, the canvas methods) pass for the
// originals, as a script that inspects them sees them: it replaces
// Function.prototype.toString, once per program, with one that gives each
// wrapper its original's text ("function fillText() { [native code] }")
// and itself the original toString's, and returns mask(wrapped, orig),
// which registers a wrapper. The wrappers so carry no property of their
// own beyond a method's name and length, and Function.prototype.toString
// called on them, or on itself, answers as the browser's. A receiver that
// is no function still gets the browser's own TypeError. Two programs
// that each call masker() stack their replacements; each answers for its
// own wrappers and passes the rest on.
(() => {
  const apply = Reflect.apply;
  const FP = Function.prototype;
  const d = Object.getOwnPropertyDescriptor(FP, 'toString');
  const prior = d.value;
  const texts = new WeakMap();
  const replaced = {
    toString() {
      const t = texts.get(this);
      return t !== undefined ? t : apply(prior, this, arguments);
    },
  }.toString;
  texts.set(replaced, apply(prior, prior, []));
  Object.defineProperty(FP, 'toString', { ...d, value: replaced });
  return (wrapped, orig) => {
    texts.set(wrapped, apply(prior, orig, []));
    return wrapped;
  };
})
