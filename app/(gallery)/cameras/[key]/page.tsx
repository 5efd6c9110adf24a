import { browseDetailPage } from "../../browse-detail";

// /cameras/[key] – the camera's photos this viewer may see, in the gallery's grid; 404 when there are none.
const page = browseDetailPage("camera");

export const generateMetadata = page.generateMetadata;
export default page.BrowseDetailPage;
