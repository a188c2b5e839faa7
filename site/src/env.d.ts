/// <reference types="astro/client" />
declare const __SITE_DATA__: string;
declare namespace App {
  interface Locals {
    page?: import('../../core/site/search-page.ts').RenderedPage;
  }
}
