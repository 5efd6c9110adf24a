import { browseDetailPage } from "../../browse-detail";

// /years/[key] – the year's photos this viewer may see, in the gallery's grid; 404 when there are none.
const page = browseDetailPage("year");

export const generateMetadata = page.generateMetadata;
export default page.BrowseDetailPage;
