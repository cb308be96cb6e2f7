// target.js tells, for the user's action policy, whether an action on the
// element it is called on (this) activates it and which form it would
// submit. kind is "click" (the element is clicked), "enter" (Enter is
// pressed in it), "space" (Space is pressed in it) or "" (it is acted on
// otherwise: chosen, checked, hovered). It changes nothing on the page.
(function (kind) {
  const el = this;
  const getter = (proto, name, o) => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    return d && d.get ? d.get.call(o) : undefined;
  };
  const tag = el.localName;
  const type = (el.getAttribute('type') || '').toLowerCase();
  // A submit button: a button without type or of type submit, an input
  // of type submit or image.
  const submits = (e) => {
    const t = (e.getAttribute('type') || '').toLowerCase();
    return (e.localName === 'button' && (t === '' || t === 'submit')) ||
      (e.localName === 'input' && (t === 'submit' || t === 'image'));
  };
  const formOf = (e) => {
    const proto = e.localName === 'button' ? HTMLButtonElement.prototype : e.localName === 'input' ? HTMLInputElement.prototype : null;
    return proto ? getter(proto, 'form', e) : null;
  };
  // The form's default button, whose formmethod and formaction an
  // implicit submission (Enter in a field) uses.
  const defaultButton = (f) => {
    for (const e of getter(HTMLFormElement.prototype, 'elements', f) || []) if (submits(e)) return e;
    return null;
  };
  const noField = ['button', 'submit', 'reset', 'image', 'file', 'hidden', 'checkbox', 'radio', 'range', 'color'];
  const buttonLike = tag === 'button' || (tag === 'input' && ['submit', 'image', 'button', 'reset', 'checkbox', 'radio'].includes(type)) ||
    ['button', 'checkbox', 'radio', 'switch', 'menuitem', 'tab', 'option'].includes(el.getAttribute('role') || '');
  let aims = true, submitter = null, form = null;
  if (kind === 'click') {
    const b = submits(el) ? el : (el.closest && el.closest('button'));
    if (b && submits(b)) { submitter = b; form = formOf(b); }
  } else if (kind === 'enter') {
    if (submits(el)) { submitter = el; form = formOf(el); }
    else if (tag === 'input' && !noField.includes(type)) {
      form = formOf(el);
      submitter = form ? defaultButton(form) : null;
    } else if (!buttonLike && tag !== 'a') aims = false;
  } else if (kind === 'space') {
    if (!buttonLike) aims = false;
    else if (submits(el)) { submitter = el; form = formOf(el); }
  }
  if (!aims) return {aims: false, form: null};
  if (!form) return {aims: true, form: null};
  let method = getter(HTMLFormElement.prototype, 'method', form);
  let action = getter(HTMLFormElement.prototype, 'action', form);
  if (submitter && submitter.hasAttribute('formmethod')) method = submitter.formMethod || method;
  if (submitter && (submitter.getAttribute('formaction') || '') !== '') action = submitter.formAction;
  return {aims: true, form: {method: String(method || 'get').toLowerCase(), action: String(action || document.URL)}};
})
