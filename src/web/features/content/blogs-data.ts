export interface BlogArticle {
  slug: string;
  question: string;
  answer: string[];
}

export const blogArticles: BlogArticle[] = [
  {
    slug: "choosing-the-right-part",
    question: "How do I make sure a part fits the vehicle I am working on?",
    answer: [
      "Start with the original equipment (OE) part number whenever you can. It is usually stamped or printed on the old part, listed in the manufacturer's parts catalogue, or shown on the dealer invoice. Every product page lists the OE numbers it replaces, so a matching number is the most reliable confirmation of fit.",
      "If the old part is not to hand, use the vehicle identification number (VIN). Make, model and year are often not enough: the same model can leave the factory with different brake sizes, engine codes or gearboxes within one production year. The VIN identifies the exact build, and our customer success team can check it against our fitment data before you order.",
      "Before you fit anything, compare the new part with the old one side by side: mounting points, connector shapes, pulley grooves, thread sizes and overall dimensions. If something looks different, stop and contact us. Returning an unfitted part is far simpler than diagnosing a problem after installation.",
    ],
  },
  {
    slug: "warranty-and-claims",
    question: "What does the warranty cover and how do I make a claim?",
    answer: [
      "Every product carries its own warranty period, shown on the product page and ranging from 6 to 60 months depending on the part. The warranty covers defects in materials and manufacture that appear under normal use when the part has been fitted correctly to a vehicle it is listed for.",
      "It does not cover normal wear, such as brake discs reaching their minimum thickness, or damage caused by incorrect fitting, accidents, contaminated fluids, racing or modifications. Parts that work together should be replaced together as the instructions describe: a timing belt fitted with a worn old tensioner is a common example of a failure the warranty cannot accept.",
      "To claim, contact our customer success team with your order number, the vehicle's VIN and mileage, a short description of the fault and clear photos of the part. A fitting invoice from a workshop helps us process the claim quickly. We may ask for the part to be returned for inspection; if the claim is accepted, we replace the part or refund its price.",
    ],
  },
  {
    slug: "minimum-orders-and-bulk-buying",
    question: "Why is there a minimum order quantity and how does bulk ordering work?",
    answer: [
      "PartsWorks sells at wholesale prices to garages, fleet operators and distributors. Picking, packing and shipping a single low-cost item costs almost as much as shipping a carton, so each product has a minimum order quantity that keeps the price per unit low. Cheap consumables such as oil and air filters have higher minimums; large assemblies such as alternators and clutch kits can be ordered in pairs.",
      "The minimum is shown on every product page. You can combine as many different products as you like in a single order, as long as the quantity on each line meets that product's own minimum.",
      "The available quantity on each product page is the stock we can ship right now. If you need more than that, or want to plan regular deliveries for a fleet or a branch network, contact our customer success team and we will agree volumes and timing with you.",
    ],
  },
  {
    slug: "secure-card-payments",
    question: "How is my card payment kept safe?",
    answer: [
      "Card details are entered into a form provided by our payment provider, a company certified to the PCI DSS security standard for handling card data. The card number, expiry date and security code go directly from your browser to the provider over an encrypted connection.",
      "Our store never receives, sees or stores your full card details. After the payment, the provider only tells us whether it succeeded, together with a reference we use to match the payment to your order. Even our own staff cannot look up your card number, because we simply do not have it.",
      "You can help by checking that the address bar shows a secure connection before paying, never sending card details by email or chat, and using your bank's additional verification step when it is requested.",
    ],
  },
  {
    slug: "stock-holds-and-unpaid-orders",
    question: "What happens to my order if I do not pay straight away?",
    answer: [
      "When you place an order, the quantities you ordered are reserved for you immediately, so nobody else can buy the same stock while you arrange payment. This is useful when a purchase needs to be approved by a manager or paid from a company card.",
      "An unpaid order holds its stock for 48 hours. If payment is not completed within that time, the order is cancelled automatically and the reserved items are released back into stock for other customers.",
      "If your order has been cancelled, simply place it again; there is no penalty. Bear in mind that stock levels may have changed in the meantime, so check the available quantities before you check out.",
    ],
  },
  {
    slug: "oem-vs-aftermarket",
    question: "Is an aftermarket part as good as an OEM part?",
    answer: [
      "OEM parts are made by or for the vehicle manufacturer and sold under its name. Aftermarket parts are made by independent manufacturers such as PartsWorks. The difference that matters is not who made the part but which standard it was built and tested to.",
      "Our parts are engineered against the original part's dimensions and performance and tested to the recognised standards for their category, such as UN ECE R90 for brake discs, ISO 4548 for oil filters and ISO 5011 for air filters. Lighting products carry the E-mark required for road use. Each product page states the standards that apply to it.",
      "Quality varies widely in the aftermarket, so look for documented testing, traceable batch numbers and a clear warranty. A part that meets the same standard as the original will perform like the original, usually at a lower price.",
    ],
  },
  {
    slug: "how-to-read-a-review",
    question: "How should I read product reviews before buying?",
    answer: [
      "Look past the star rating to the detail. The most useful reviews mention the vehicle, the mileage or time in service and how the part was used, for example a delivery van in city traffic compared with a private car on the motorway.",
      "Separate fitting problems from product problems. A complaint about a part that did not fit may point to an ordering mistake rather than a faulty part, which is why checking the OE number or VIN first matters. Complaints that several reviewers report independently are more meaningful than a single strong opinion.",
      "Check the dates and the overall pattern. Recent reviews reflect the current production batch, and a product with many moderate, detailed reviews is often a safer choice than one with a handful of perfect scores and no explanation.",
    ],
  },
];
