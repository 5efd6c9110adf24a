import { browseDetailPage } from "../../browse-detail";

// /lenses/[key] – the lens's photos this viewer may see, in the gallery's grid; 404 when there are none.
const page = browseDetailPage("lens");

export const generateMetadata = page.generateMetadata;
export default page.BrowseDetailPage;
