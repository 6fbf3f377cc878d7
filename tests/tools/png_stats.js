// Decodes a PNG (8-bit RGB/RGBA, non-interlaced: what Chromium writes) with node's zlib and fails
// when fewer than MIN_FRACTION of its pixels are non-white, i.e. the page rendered blank.
// Usage: node png_stats.js FILE.png [MIN_FRACTION]
"use strict";
const fs = require("fs");
const zlib = require("zlib");
const [file, minArg] = process.argv.slice(2);
const minFraction = Number(minArg || "0.01");
const png = fs.readFileSync(file);
if (png.readUInt32BE(0) !== 0x89504e47) throw new Error(`${file}: not a PNG`);
let offset = 8, width = 0, height = 0, depth = 0, colorType = 0, interlace = 0;
const idat = [];
while (offset < png.length) {
  const length = png.readUInt32BE(offset);
  const type = png.toString("ascii", offset + 4, offset + 8);
  const data = png.subarray(offset + 8, offset + 8 + length);
  if (type === "IHDR") {
    width = data.readUInt32BE(0); height = data.readUInt32BE(4);
    depth = data[8]; colorType = data[9]; interlace = data[12];
  } else if (type === "IDAT") idat.push(data);
  offset += 12 + length;
}
const channels = { 2: 3, 6: 4 }[colorType];
if (depth !== 8 || !channels || interlace !== 0) throw new Error(`${file}: unsupported PNG (depth ${depth}, colour type ${colorType}, interlace ${interlace})`);
const raw = zlib.inflateSync(Buffer.concat(idat));
const stride = width * channels;
let prev = Buffer.alloc(stride), nonWhite = 0;
for (let y = 0; y < height; y++) {
  const filter = raw[y * (stride + 1)];
  const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
  for (let i = 0; i < stride; i++) {
    const a = i >= channels ? line[i - channels] : 0, b = prev[i], c = i >= channels ? prev[i - channels] : 0;
    let add = 0;
    if (filter === 1) add = a;
    else if (filter === 2) add = b;
    else if (filter === 3) add = (a + b) >> 1;
    else if (filter === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
    line[i] = (line[i] + add) & 0xff;
  }
  for (let x = 0; x < width; x++) {
    const p = x * channels;
    if (line[p] < 245 || line[p + 1] < 245 || line[p + 2] < 245) nonWhite++;
  }
  prev = line;
}
const fraction = nonWhite / (width * height);
console.log(`png: ${file}: ${width}x${height}, ${(fraction * 100).toFixed(2)}% non-white pixels`);
process.exit(fraction >= minFraction ? 0 : 1);
