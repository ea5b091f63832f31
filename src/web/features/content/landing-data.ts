export interface Leader {
  name: string;
  role: string;
  bio: string;
  image: string;
}

export interface Client {
  name: string;
  image: string;
}

export interface SummaryFigure {
  value: string;
  label: string;
}

export const leaders: Leader[] = [
  {
    name: "Helena Marsh",
    role: "Founder & CEO",
    bio: "Helena started PartsWorks in a two-bay machine shop after fifteen years in brake component manufacturing and still signs off every new product line herself.",
    image: "/images/leaders/leader-1.svg",
  },
  {
    name: "Tomasz Kowal",
    role: "Head of Engineering",
    bio: "Tomasz leads the design team that reverse-engineers OE parts, specifies materials and builds the fitment data behind every catalogue entry.",
    image: "/images/leaders/leader-2.svg",
  },
  {
    name: "Amara Nwosu",
    role: "Head of Quality",
    bio: "Amara runs incoming inspection, batch testing and warranty analysis, and makes sure every part ships with traceable test records.",
    image: "/images/leaders/leader-3.svg",
  },
  {
    name: "Ewan Doyle",
    role: "Head of Customer Success",
    bio: "Ewan and his team help garages, fleet managers and distributors find the right part, plan bulk orders and resolve claims quickly.",
    image: "/images/leaders/leader-4.svg",
  },
];

export const clients: Client[] = [
  { name: "Torvane Fleet Services", image: "/images/clients/client-1.svg" },
  { name: "Halcyon Motorworks", image: "/images/clients/client-2.svg" },
  { name: "Brightway Logistics", image: "/images/clients/client-3.svg" },
  { name: "Corvel Auto Care", image: "/images/clients/client-4.svg" },
  { name: "Ironridge Garages", image: "/images/clients/client-5.svg" },
  { name: "Solent Parts Supply", image: "/images/clients/client-6.svg" },
];

export const businessSummary: SummaryFigure[] = [
  { value: "72+", label: "Countries" },
  { value: "500+", label: "Projects" },
  { value: "300+", label: "Clients" },
  { value: "400+", label: "Feedbacks" },
];
