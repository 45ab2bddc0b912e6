export { Footer } from './footer';
export { Layout, PageContainer, PageHeader, RouteFallback } from './layout';
export { DocumentTitle, LogoMark, PRODUCT_NAME } from './logo';
export { Navbar, navItemsFor } from './navbar';
export { SignInLink } from './sign-in-link';
