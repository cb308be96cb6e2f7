// colourName(c) names a computed CSS colour (`rgb(r, g, b)` or
// `rgba(r, g, b, a)`) finely enough to tell shades apart: the nearest of
// CSS's named colours, by CIEDE2000 (how far apart a person sees two
// colours), with the colour's own hex beside it: "crimson #dc143c",
// "indianred #cd5c5c". It returns '' for a colour a person does not see
// (transparent, or under 10% opaque) or one it cannot read.
(function colourName(c) {
  if (!c || c === 'transparent') return '';
  const m = c.match(/rgba?\(([^)]+)\)/);
  if (!m) return '';
  const v = m[1].split(/[\s,/]+/).filter(Boolean).map(parseFloat);
  if (v.length < 3 || v.some((x) => Number.isNaN(x)) || (v.length > 3 && v[3] < 0.1)) return '';
  const rgb = v.slice(0, 3).map((x) => Math.max(0, Math.min(255, Math.round(x))));
  const hex = '#' + rgb.map((x) => x.toString(16).padStart(2, '0')).join('');
  const lab = (r, g, b) => {
    const lin = (x) => {
      x /= 255;
      return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    };
    const [R, G, B] = [lin(r), lin(g), lin(b)];
    const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
    const x = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047);
    const y = f(0.2126 * R + 0.7152 * G + 0.0722 * B);
    const z = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  // de2000 is the CIEDE2000 colour difference, which weighs hue and
  // chroma as people see them (plain distance in CIELAB calls a dark red
  // orange-red).
  const de2000 = ([L1, a1, b1], [L2, a2, b2]) => {
    const rad = Math.PI / 180;
    const C1 = Math.hypot(a1, b1), C2 = Math.hypot(a2, b2), Cm = (C1 + C2) / 2;
    const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)));
    const A1 = (1 + G) * a1, A2 = (1 + G) * a2;
    const c1 = Math.hypot(A1, b1), c2 = Math.hypot(A2, b2);
    const h = (b, a) => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
    const h1 = h(b1, A1), h2 = h(b2, A2);
    let dh = h2 - h1;
    if (c1 * c2 === 0) dh = 0; else if (dh > 180) dh -= 360; else if (dh < -180) dh += 360;
    const dL = L2 - L1, dC = c2 - c1, dH = 2 * Math.sqrt(c1 * c2) * Math.sin(dh * rad / 2);
    const Lm = (L1 + L2) / 2, cm = (c1 + c2) / 2;
    let hm = h1 + h2;
    if (c1 * c2 !== 0) hm = Math.abs(h1 - h2) > 180 ? (h1 + h2 + (h1 + h2 < 360 ? 360 : -360)) / 2 : (h1 + h2) / 2;
    const T = 1 - 0.17 * Math.cos((hm - 30) * rad) + 0.24 * Math.cos(2 * hm * rad) +
      0.32 * Math.cos((3 * hm + 6) * rad) - 0.2 * Math.cos((4 * hm - 63) * rad);
    const SL = 1 + 0.015 * (Lm - 50) ** 2 / Math.sqrt(20 + (Lm - 50) ** 2);
    const SC = 1 + 0.045 * cm, SH = 1 + 0.015 * cm * T;
    const RT = -2 * Math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)) * Math.sin(60 * Math.exp(-(((hm - 275) / 25) ** 2)) * rad);
    return Math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH));
  };
  // The table is built once per page program run.
  if (!colourName.table) {
    const names = 'aliceblue f0f8ff antiquewhite faebd7 cyan 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc ' +
      'bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a burlywood deb887 ' +
      'cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50 cornflowerblue 6495ed cornsilk fff8dc ' +
      'crimson dc143c darkblue 00008b darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 ' +
      'darkkhaki bdb76b darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 ' +
      'darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f darkturquoise 00ced1 ' +
      'darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff dimgray 696969 dodgerblue 1e90ff firebrick b22222 ' +
      'floralwhite fffaf0 forestgreen 228b22 gainsboro dcdcdc ghostwhite f8f8ff gold ffd700 goldenrod daa520 ' +
      'gray 808080 green 008000 greenyellow adff2f honeydew f0fff0 hotpink ff69b4 indianred cd5c5c indigo 4b0082 ' +
      'ivory fffff0 khaki f0e68c lavender e6e6fa lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd ' +
      'lightblue add8e6 lightcoral f08080 lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 ' +
      'lightgreen 90ee90 lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa ' +
      'lightslategray 778899 lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6 ' +
      'magenta ff00ff maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 ' +
      'mediumpurple 9370db mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a ' +
      'mediumturquoise 48d1cc mediumvioletred c71585 midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 ' +
      'moccasin ffe4b5 navajowhite ffdead navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500 ' +
      'orangered ff4500 orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee ' +
      'palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd ' +
      'powderblue b0e0e6 purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1 ' +
      'saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d ' +
      'silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 snow fffafa springgreen 00ff7f ' +
      'steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347 turquoise 40e0d0 violet ee82ee ' +
      'wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00 yellowgreen 9acd32';
    const w = names.split(' ');
    colourName.table = [];
    for (let i = 0; i < w.length; i += 2) {
      const n = parseInt(w[i + 1], 16);
      colourName.table.push([w[i], lab(n >> 16, (n >> 8) & 255, n & 255)]);
    }
    colourName.seen = new Map();
  }
  let name = colourName.seen.get(hex);
  if (name === undefined) {
    const c1 = lab(rgb[0], rgb[1], rgb[2]);
    let bd = Infinity;
    for (const [n, c2] of colourName.table) {
      const d = de2000(c1, c2);
      if (d < bd) { bd = d; name = n; }
    }
    colourName.seen.set(hex, name);
  }
  return name + ' ' + hex;
})
