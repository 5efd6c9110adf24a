/**
 * HDR (PQ or HLG, BT.2020) to SDR BT.709 by Hable's curve, through zimg: browsers and the poster's
 * JPEG show SDR, and HDR frames shown as they are look grey and washed out.
 */
export const HDR_TO_SDR_FILTER =
  "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p";

/** Fits the frame inside `maxSide` × `maxSide` (never enlarging), with even sizes as H.264 needs. */
export function fitWithinFilter(maxSide: number): string {
  return `scale=w='min(iw,${maxSide})':h='min(ih,${maxSide})':force_original_aspect_ratio=decrease:force_divisible_by=2`;
}
