/** Headers between the gateway and subgraphs that run as their own services. */
export const SUBGRAPH_SECRET_HEADER = 'x-gateway-secret';
export const VIEWER_HEADER = 'x-gateway-viewer';
