// tells() reads what a page (or a worker) can see of the browser that
// runs it, for the tests of browser/ordinary.go. It works in a window and
// in a worker; what only a window has is left out in a worker.
async function tells() {
  const n = navigator;
  const t = {
    ua: n.userAgent,
    appVersion: n.appVersion,
    webdriver: n.webdriver,
    cores: n.hardwareConcurrency,
    languages: n.languages,
    brands: [],
    fullVersionList: [],
    platform: '',
    architecture: '',
    bitness: '',
    uaFullVersion: '',
  };
  if (n.userAgentData) {
    t.brands = n.userAgentData.brands.map((b) => b.brand + ' ' + b.version);
    t.platform = n.userAgentData.platform;
    const hi = await n.userAgentData.getHighEntropyValues(['fullVersionList', 'architecture', 'bitness', 'uaFullVersion']);
    t.fullVersionList = (hi.fullVersionList || []).map((b) => b.brand + ' ' + b.version);
    t.architecture = hi.architecture || '';
    t.bitness = hi.bitness || '';
    t.uaFullVersion = hi.uaFullVersion || '';
  }
  const canvas = typeof document !== 'undefined' ? document.createElement('canvas') : new OffscreenCanvas(1, 1);
  const gl = canvas.getContext('webgl');
  if (gl) {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    t.webgl = {
      vendor: gl.getParameter(gl.VENDOR),
      renderer: gl.getParameter(gl.RENDERER),
      unmaskedVendor: info ? gl.getParameter(info.UNMASKED_VENDOR_WEBGL) : '',
      unmaskedRenderer: info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : '',
    };
  }
  if (typeof window === 'undefined') {
    return t;
  }
  // What the server got, once it asked for the hints (Accept-CH).
  t.headers = await (await fetch('hints')).json();
  t.plugins = n.plugins.length;
  t.pluginArray = n.plugins instanceof PluginArray;
  t.mimeTypes = n.mimeTypes.length;
  t.chrome = typeof window.chrome === 'object' && window.chrome !== null;
  t.notification = Notification.permission;
  t.permission = (await n.permissions.query({ name: 'notifications' })).state;
  t.screen = { width: screen.width, height: screen.height, availWidth: screen.availWidth, availHeight: screen.availHeight };
  t.outer = { width: outerWidth, height: outerHeight };
  t.inner = { width: innerWidth, height: innerHeight };
  return t;
}
