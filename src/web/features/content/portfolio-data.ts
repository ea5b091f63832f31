export interface SkillGroup {
  group: string;
  items: string[];
}

export interface PortfolioProject {
  name: string;
  description: string;
  tech: string[];
}

export interface EducationEntry {
  school: string;
  degree: string;
  years: string;
}

export interface Portfolio {
  name: string;
  title: string;
  summary: string;
  email: string;
  location: string;
  skills: SkillGroup[];
  projects: PortfolioProject[];
  education: EducationEntry[];
}

export const portfolio: Portfolio = {
  name: "Jordan Avery",
  title: "Full-Stack TypeScript Developer",
  summary:
    "I build fast, accessible web applications end to end, from database schema to checkout flow. I designed and developed this PartsWorks storefront, with a focus on clear product data, reliable ordering and secure payments.",
  email: "jordan.avery@example.com",
  location: "Leeds, United Kingdom",
  skills: [
    {
      group: "Frontend",
      items: [
        "TypeScript",
        "React",
        "React Router",
        "TanStack Query",
        "Tailwind CSS",
        "Accessibility (WCAG 2.2)",
      ],
    },
    {
      group: "Backend",
      items: [
        "Node.js",
        "Fastify",
        "REST API design",
        "Zod validation",
        "Authentication and sessions",
      ],
    },
    {
      group: "Data",
      items: ["PostgreSQL", "Drizzle ORM", "Schema migrations", "Query optimisation"],
    },
    {
      group: "Quality and delivery",
      items: ["Vitest", "Playwright", "ESLint and Prettier", "CI pipelines", "Code review"],
    },
  ],
  projects: [
    {
      name: "PartsWorks Storefront",
      description:
        "Wholesale storefront for a spare-parts manufacturer with a product catalogue, minimum order quantities, stock reservations for unpaid orders and payment through an external card provider.",
      tech: ["TypeScript", "React", "Fastify", "PostgreSQL", "Drizzle ORM"],
    },
    {
      name: "Fleet Service Planner",
      description:
        "Scheduling tool that tracks mileage and service intervals for a vehicle fleet and produces weekly workshop plans and parts lists.",
      tech: ["TypeScript", "React", "Node.js", "PostgreSQL"],
    },
    {
      name: "Workshop Booking API",
      description:
        "Public API that lets independent garages publish free service slots and accept online bookings, with rate limiting and OpenAPI documentation.",
      tech: ["Node.js", "Fastify", "Zod", "OpenAPI", "Vitest"],
    },
  ],
  education: [
    {
      school: "Northfield Institute of Technology",
      degree: "BSc (Hons) Computer Science",
      years: "2013 - 2016",
    },
    {
      school: "Online Open Academy",
      degree: "Certificate in Web Application Security",
      years: "2019",
    },
  ],
};
