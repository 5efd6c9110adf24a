// Proofing for a share's visitors, to compose into the share's pages:
//   <ProofingProvider shareKey={key}>            around the page (fetches the visitor once)
//     <PickToggle photoId photoName />            on each grid tile (the tile is position: relative)
//     <PickToggle photoId photoName variant="page" />  and <CommentBox photoId /> on the photo page
//     <SelectionBar />                            once, at the end of the page (sticky at the bottom)
//   </ProofingProvider>
// Each renders nothing on a link that does not invite picks.
export { ProofingProvider, useProofing, type ProofingContextValue } from "./proofing-provider";
export { PickToggle } from "./pick-toggle";
export { CommentBox } from "./comment-box";
export { SelectionBar } from "./selection-bar";
