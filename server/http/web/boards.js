// Boards as SVG, drawn from a BoardPicture alone (POST /v1/draw, proto/qs/v1/drawing.proto): cells with
// their text, glyph, region colour, given, blocked and shaded marks, then walls, paths, rectangles,
// signs, cages and the row and column labels. Nothing here knows a puzzle family. Every cell is a
// <g class="cell"> with data-row, data-col (0-based), data-glyph and data-text, and every other
// primitive has a class of its own (wall, path, area, sign, cage, label), so that what is drawn can be
// read back from the DOM.
'use strict';

const Boards = (() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const CELL = 44;
  const PALETTE = ['#f4a3a3', '#f7c98b', '#f3ee8d', '#b9e3a0', '#9fd8d0', '#a9c7f0', '#c8b4ee', '#f0b3d9',
    '#d9c3a5', '#c9d1d9', '#e8a87c', '#a5e3c3', '#e2e2a0', '#b0b8f5', '#f5b0b0', '#b8e0f5'];
  const PLAIN = '#fbf8f0', BLOCKED = '#555', GIVEN_INK = '#111', ANSWER_INK = '#2563eb';

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(parent, x, y, value, attrs) {
    const t = el('text', Object.assign({ x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, attrs), parent);
    t.textContent = value;
    return t;
  }

  function regionColour(region) { return PALETTE[(region - 1) % PALETTE.length]; }

  function background(cell) {
    if (cell.blocked) return BLOCKED;
    if (cell.region) return regionColour(cell.region);
    return PLAIN;
  }

  // Points of a polygon given in a 44-unit cell, placed at (x, y).
  function points(x, y, list) { return list.map(([a, b]) => `${x + (a * CELL) / 44},${y + (b * CELL) / 44}`).join(' '); }

  // The glyphs drawing.proto names, each a few SVG shapes in the cell at (x, y); `ink` is the
  // piece colour (stronger for givens), `backdrop` the cell's colour. A name not listed here is drawn
  // as text.
  const GLYPHS = {
    queen(g, x, y, ink) {
      el('polygon', { points: points(x, y, [[10, 32], [8, 14], [16, 22], [22, 10], [28, 22], [36, 14], [34, 32]]), fill: ink }, g);
      el('rect', { x: x + (10 * CELL) / 44, y: y + (33 * CELL) / 44, width: (24 * CELL) / 44, height: (4 * CELL) / 44, fill: ink }, g);
    },
    king(g, x, y, ink) {
      el('polygon', { points: points(x, y, [[11, 33], [9, 18], [16, 23], [22, 16], [28, 23], [35, 18], [33, 33]]), fill: ink }, g);
      el('rect', { x: x + (20.5 * CELL) / 44, y: y + (5 * CELL) / 44, width: (3 * CELL) / 44, height: (11 * CELL) / 44, fill: ink }, g);
      el('rect', { x: x + (17 * CELL) / 44, y: y + (8 * CELL) / 44, width: (10 * CELL) / 44, height: (3 * CELL) / 44, fill: ink }, g);
      el('rect', { x: x + (10 * CELL) / 44, y: y + (34 * CELL) / 44, width: (24 * CELL) / 44, height: (4 * CELL) / 44, fill: ink }, g);
    },
    rook(g, x, y, ink) {
      el('polygon', {
        points: points(x, y, [[11, 8], [16, 8], [16, 12], [20, 12], [20, 8], [24, 8], [24, 12], [28, 12], [28, 8],
          [33, 8], [33, 16], [29, 19], [29, 31], [34, 34], [34, 38], [10, 38], [10, 34], [15, 31], [15, 19], [11, 16]]),
        fill: ink,
      }, g);
    },
    bishop(g, x, y, ink) {
      el('ellipse', { cx: x + CELL / 2, cy: y + (21 * CELL) / 44, rx: (8 * CELL) / 44, ry: (11 * CELL) / 44, fill: ink }, g);
      el('circle', { cx: x + CELL / 2, cy: y + (7 * CELL) / 44, r: (3 * CELL) / 44, fill: ink }, g);
      el('polygon', { points: points(x, y, [[14, 38], [17, 30], [27, 30], [30, 38]]), fill: ink }, g);
    },
    knight(g, x, y, ink) {
      el('polygon', {
        points: points(x, y, [[14, 38], [16, 28], [20, 22], [12, 24], [9, 19], [18, 10], [20, 6], [23, 9], [30, 12],
          [34, 22], [33, 38]]),
        fill: ink,
      }, g);
    },
    tree(g, x, y) {
      el('rect', { x: x + CELL * 0.45, y: y + CELL * 0.62, width: CELL * 0.1, height: CELL * 0.22, fill: '#7b4f2c' }, g);
      el('polygon', { points: points(x, y, [[22, 5], [10, 29], [34, 29]]), fill: '#2f8f46', stroke: '#1d5c2c' }, g);
    },
    tent(g, x, y) {
      el('polygon', { points: points(x, y, [[22, 8], [7, 35], [37, 35]]), fill: '#e67e22', stroke: '#9c4f0b', 'stroke-width': 1.5 }, g);
      el('polygon', { points: points(x, y, [[22, 20], [17.6, 35], [26.4, 35]]), fill: '#5a2d0c' }, g);
    },
    sun(g, x, y) {
      el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.28, fill: '#f6b93b', stroke: '#c77c02', 'stroke-width': 2 }, g);
    },
    // A crescent: the moon's disc with a disc of the cell's colour over its upper right.
    moon(g, x, y, ink, backdrop) {
      const r = CELL * 0.28, cx = x + CELL / 2, cy = y + CELL / 2;
      el('circle', { cx, cy, r, fill: '#4a69bd', stroke: '#1e3799', 'stroke-width': 1.5 }, g);
      el('circle', { cx: cx + r * 0.45, cy: cy - r * 0.3, r: r * 0.82, fill: backdrop }, g);
    },
    dot(g, x, y, ink) { el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.12, fill: ink }, g); },
    cross(g, x, y, ink) {
      const a = CELL * 0.3, b = CELL * 0.7, attrs = { stroke: ink, 'stroke-width': 3, 'stroke-linecap': 'round' };
      el('line', Object.assign({ x1: x + a, y1: y + a, x2: x + b, y2: y + b }, attrs), g);
      el('line', Object.assign({ x1: x + b, y1: y + a, x2: x + a, y2: y + b }, attrs), g);
    },
    square(g, x, y, ink) { el('rect', { x: x + CELL * 0.25, y: y + CELL * 0.25, width: CELL * 0.5, height: CELL * 0.5, fill: ink }, g); },
    tall(g, x, y, ink) { el('rect', { x: x + CELL * 0.38, y: y + CELL * 0.15, width: CELL * 0.24, height: CELL * 0.7, rx: 3, fill: ink }, g); },
    wide(g, x, y, ink) { el('rect', { x: x + CELL * 0.15, y: y + CELL * 0.38, width: CELL * 0.7, height: CELL * 0.24, rx: 3, fill: ink }, g); },
  };

  // Cells named by the violations' locations ("row 3", "column 2", "cell (2,5)"); 1-based.
  function violatedCells(violations, rows, cols) {
    const cells = new Set();
    const add = (r, c) => { if (r >= 0 && r < rows && c >= 0 && c < cols) cells.add(r * cols + c); };
    for (const v of violations || []) {
      const where = v.location || '';
      for (const m of where.matchAll(/\((\d+),\s*(\d+)\)/g)) add(+m[1] - 1, +m[2] - 1);
      let m;
      if ((m = where.match(/^row (\d+)/))) for (let c = 0; c < cols; c++) add(+m[1] - 1, c);
      if ((m = where.match(/^column (\d+)/))) for (let r = 0; r < rows; r++) add(r, +m[1] - 1);
    }
    return cells;
  }

  // The sides of the cells of `set` that no other cell of the set shares, each as [x1, y1, x2, y2]
  // moved `inset` into its cell.
  function outline(set, cols, ox, oy, inset) {
    const sides = [];
    for (const i of set) {
      const r = Math.floor(i / cols), c = i % cols, x = ox + c * CELL, y = oy + r * CELL;
      if (r === 0 || !set.has(i - cols)) sides.push([x, y + inset, x + CELL, y + inset]);
      if (!set.has(i + cols)) sides.push([x, y + CELL - inset, x + CELL, y + CELL - inset]);
      if (c === 0 || !set.has(i - 1)) sides.push([x + inset, y, x + inset, y + CELL]);
      if (c === cols - 1 || !set.has(i + 1)) sides.push([x + CELL - inset, y, x + CELL - inset, y + CELL]);
    }
    return sides;
  }

  // Draws `picture` into `container` (replacing what was there). `violations`: the rules the drawn
  // board breaks (outlined where their location names cells).
  function draw(container, picture, violations) {
    container.textContent = '';
    if (!picture) return null;
    const rows = picture.rows || 0, cols = picture.cols || 0;
    const cells = picture.cells || [];
    const rowLabels = picture.rowLabels || [], colLabels = picture.colLabels || [];
    const ox = 4, oy = 4;
    const right = rowLabels.length ? CELL * 0.9 : 0, below = colLabels.length ? CELL * 0.7 : 0;
    const svg = el('svg', {
      viewBox: `0 0 ${cols * CELL + 8 + right} ${rows * CELL + 8 + below}`,
      'data-rows': rows, 'data-cols': cols,
    }, container);
    const at = (i) => [ox + (i % cols) * CELL, oy + Math.floor(i / cols) * CELL];
    const centre = (i) => { const [x, y] = at(i); return [x + CELL / 2, y + CELL / 2]; };
    const onBoard = (i) => Number.isInteger(i) && i >= 0 && i < rows * cols;

    const bad = violatedCells(violations, rows, cols);
    for (let i = 0; i < rows * cols; i++) {
      const cell = cells[i] || {};
      const [x, y] = at(i);
      const g = el('g', {
        class: 'cell' + (bad.has(i) ? ' violated' : ''), 'data-row': Math.floor(i / cols), 'data-col': i % cols,
        'data-glyph': cell.glyph || '', 'data-text': cell.text || '',
        'data-region': cell.region || 0, 'data-given': cell.given ? 'true' : 'false',
        'data-blocked': cell.blocked ? 'true' : 'false',
      }, svg);
      const backdrop = background(cell);
      el('rect', { class: 'bg', x, y, width: CELL, height: CELL, fill: backdrop, stroke: '#9ca3af', 'stroke-width': 1 }, g);
      if (cell.shaded) el('rect', { class: 'shade', x, y, width: CELL, height: CELL, fill: 'rgba(37,99,235,.16)' }, g);
      const ink = cell.given ? GIVEN_INK : ANSWER_INK;
      const shape = cell.glyph && Object.prototype.hasOwnProperty.call(GLYPHS, cell.glyph) ? GLYPHS[cell.glyph] : null;
      if (shape) {
        const glyph = el('g', { class: 'glyph', 'data-glyph': cell.glyph }, g);
        shape(glyph, x, y, ink, backdrop);
        // A given glyph whose colours are its own (a sun, a tree) gets a frame.
        if (cell.given && !['queen', 'king', 'rook', 'bishop', 'knight', 'dot', 'cross', 'square', 'tall', 'wide', 'tree'].includes(cell.glyph)) {
          el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, fill: 'none', stroke: '#666', 'stroke-dasharray': '3 2' }, glyph);
        }
      }
      // The cell's text; an unknown glyph is drawn as the text, or as its name when there is none.
      const label = cell.text || (cell.glyph && !shape ? cell.glyph : '');
      if (label) {
        const size = label.length > 2 ? CELL * 0.3 : CELL * 0.55;
        text(g, x + CELL / 2, y + CELL / 2, label, {
          class: 'cell-text', 'font-size': size, 'font-weight': cell.given ? 700 : 400, fill: cell.blocked ? '#fff' : ink,
        });
      }
    }

    for (const rect of picture.rects || []) {
      const r = rect.row || 0, c = rect.col || 0, h = rect.height || 0, w = rect.width || 0;
      if (h < 1 || w < 1 || r + h > rows || c + w > cols) continue;
      const x = ox + c * CELL, y = oy + r * CELL;
      const g = el('g', { class: 'area', 'data-region': rect.region || 0 }, svg);
      el('rect', {
        x: x + 3, y: y + 3, width: w * CELL - 6, height: h * CELL - 6, rx: 4,
        fill: rect.region ? regionColour(rect.region) : 'none', 'fill-opacity': 0.55, stroke: '#333', 'stroke-width': 2,
      }, g);
      if (rect.label) text(g, x + 10, y + 12, rect.label, { 'font-size': CELL * 0.3, 'font-weight': 700 });
    }

    for (const wall of picture.walls || []) {
      const a = wall.a || 0, b = wall.b || 0;
      if (!onBoard(a) || !onBoard(b)) continue;
      const [ax, ay] = centre(a), [bx, by] = centre(b);
      if (Math.abs(ax - bx) + Math.abs(ay - by) !== CELL) continue;  // not neighbours
      const mx = (ax + bx) / 2, my = (ay + by) / 2, dx = (by - ay) / 2, dy = (bx - ax) / 2;
      el('line', { class: 'wall', x1: mx - dx, y1: my - dy, x2: mx + dx, y2: my + dy, stroke: '#111', 'stroke-width': 3, 'stroke-linecap': 'round' }, svg);
    }
    el('rect', { class: 'frame', x: ox, y: oy, width: cols * CELL, height: rows * CELL, fill: 'none', stroke: '#111', 'stroke-width': 3 }, svg);

    for (const cage of picture.cages || []) {
      const set = new Set((cage.cells || []).filter(onBoard));
      if (!set.size) continue;
      const g = el('g', { class: 'cage' }, svg);
      for (const [x1, y1, x2, y2] of outline(set, cols, ox, oy, 4)) {
        el('line', { x1, y1, x2, y2, stroke: '#333', 'stroke-width': 1.2, 'stroke-dasharray': '4 3' }, g);
      }
      if (cage.label) {
        const [x, y] = at(cage.cells.find(onBoard));
        text(g, x + 6, y + 9, cage.label, { 'text-anchor': 'start', 'font-size': CELL * 0.24, fill: '#333', class: 'cage-label' });
      }
    }

    for (const path of picture.paths || []) {
      const list = (path.cells || []).filter(onBoard);
      if (!list.length) continue;
      const g = el('g', { class: 'path' }, svg);
      el('polyline', {
        points: list.map((i) => centre(i).join(',')).join(' '), fill: 'none', stroke: 'rgba(234,88,12,.8)',
        'stroke-width': CELL * 0.28, 'stroke-linecap': 'round', 'stroke-linejoin': 'round',
      }, g);
      const [sx, sy] = centre(list[0]);
      el('circle', { cx: sx, cy: sy, r: CELL * 0.2, fill: 'rgba(234,88,12,.9)' }, g);
    }

    for (const sign of picture.signs || []) {
      const a = sign.a || 0, b = sign.b || 0;
      if (!onBoard(a) || !onBoard(b)) continue;
      const [ax, ay] = centre(a), [bx, by] = centre(b), cx = (ax + bx) / 2, cy = (ay + by) / 2;
      if (Math.abs(ax - bx) + Math.abs(ay - by) !== CELL) continue;  // not neighbours: no side to stand on
      const g = el('g', { class: 'sign', 'data-sign': sign.text || '' }, svg);
      el('circle', { cx, cy, r: CELL * 0.17, fill: '#fff', stroke: '#888' }, g);
      text(g, cx, cy, sign.text === 'x' ? '×' : sign.text || '', { 'font-size': CELL * 0.3, 'font-weight': 700, fill: '#6d4c41' });
    }

    rowLabels.forEach((label, r) => {
      if (r < rows) text(svg, ox + cols * CELL + right / 2, oy + (r + 0.5) * CELL, label, { class: 'label row-label', 'font-size': CELL * 0.4 });
    });
    colLabels.forEach((label, c) => {
      if (c < cols) text(svg, ox + (c + 0.5) * CELL, oy + rows * CELL + below / 2 + 2, label, { class: 'label col-label', 'font-size': CELL * 0.4 });
    });

    for (const i of bad) {
      const [x, y] = at(i);
      el('rect', { class: 'violation', x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, fill: 'rgba(220,38,38,.18)', stroke: '#dc2626', 'stroke-width': 2.5 }, svg);
    }
    return svg;
  }

  return { draw, GLYPHS: Object.keys(GLYPHS) };
})();
