/** Where the SOFA peer mounts its generated routes: GET /api/orders, POST /api/update-order, ... */
export const SOFA_BASE_PATH = "/api";
