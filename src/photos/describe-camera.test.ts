import { describe, expect, it } from "vitest";
import { describeCamera } from "./describe-camera";

// Every maker and model in the shared corpus, and a few more that phones and drones write.
describe("describeCamera: the maker once, in its usual casing", () => {
  it.each([
    ["Canon", "Canon EOS 40D", "Canon EOS 40D"],
    ["Canon", "EOS R5", "Canon EOS R5"],
    ["NIKON CORPORATION", "NIKON D70", "Nikon D70"],
    ["NIKON", "COOLPIX P6000", "Nikon COOLPIX P6000"],
    ["NIKON", "E950", "Nikon E950"],
    ["PENTAX Corporation", "PENTAX K10D", "Pentax K10D"],
    ["Panasonic", "DMC-FZ30", "Panasonic DMC-FZ30"],
    ["FUJIFILM", "FinePix E500", "Fujifilm FinePix E500"],
    ["OLYMPUS IMAGING CORP.", "E-P3", "Olympus E-P3"],
    ["OLYMPUS CORPORATION", "C8080WZ", "Olympus C8080WZ"],
    ["OLYMPUS OPTICAL CO.,LTD", "C960Z,D460Z", "Olympus C960Z,D460Z"],
    ["CASIO COMPUTER CO.,LTD.", "EX-M2", "Casio EX-M2"],
    ["EASTMAN KODAK COMPANY", "KODAK DC240 ZOOM DIGITAL CAMERA", "Kodak DC240 ZOOM DIGITAL CAMERA"],
    ["Eastman Kodak Company", "DC210 Zoom (V05.00)", "Kodak DC210 Zoom (V05.00)"],
    ["KONICA MINOLTA", "DiMAGE Z3", "Konica Minolta DiMAGE Z3"],
    ["SANYO Electric Co.,Ltd.", "SR6", "Sanyo SR6"],
    ["SONY", "DSLR-A550", "Sony DSLR-A550"],
    ["samsung", "SM-G930F", "Samsung SM-G930F"],
    ["Samsung Techwin", "<Digimax i50 MP3, Samsung #1 MP3>", "Samsung <Digimax i50 MP3, Samsung #1 MP3>"],
    ["HMD Global", "Nokia 8.3 5G", "HMD Nokia 8.3 5G"],
    ["Apple", "iPhone 13 Pro Max", "Apple iPhone 13 Pro Max"],
    ["Jolla", "Jolla", "Jolla"],
    ["RICOH", "RDC-5300", "Ricoh RDC-5300"],
    ["DJI", "FC3582", "DJI FC3582"],
    ["LG Electronics", "LM-G710", "LG Electronics LM-G710"],
    ["  ", "Some Model", "Some Model"],
    [null, "Some Model", "Some Model"],
    ["Make Only", null, "Make Only"],
    [null, null, null],
  ])("%s + %s → %s", (make, model, expected) => {
    expect(describeCamera(make, model)).toBe(expected);
  });
});
