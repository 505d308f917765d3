"""Value pools of the ledger-bench generator (partitioned across splits by bench.episodes, so
the splits are entity-disjoint). Diets, pet species and numbers are generic, not entities,
and are shared by all splits."""

from __future__ import annotations

PEOPLE = (
    "Maya", "Liam", "Noah", "Emma", "Olivia", "Ava", "Sophia", "Isabella", "Mia", "Amelia",
    "Harper", "Evelyn", "Abigail", "Ella", "Elijah", "James", "Benjamin", "Lucas", "Mason",
    "Ethan", "Logan", "Jacob", "Jackson", "Aiden", "Samuel", "Henry", "Owen", "Wyatt", "Caleb",
    "Nathan", "Ryan", "Adrian", "Hannah", "Grace", "Chloe", "Zoe", "Nora", "Lily", "Riley",
    "Aria", "Layla", "Scarlett", "Victoria", "Theo", "Ines", "Penelope", "Camila", "Aurora",
    "Hazel", "Violet", "Stella", "Lucy", "Paisley", "Rafael", "Brooklyn", "Noor", "Claire",
    "Skylar", "Leah", "Audrey", "Ariana", "Allison", "Gabriella", "Alice", "Sadie", "Hailey",
    "Eva", "Emilia", "Autumn", "Quinn", "Nevaeh", "Piper", "Ruby", "Serenity", "Willow",
    "Everly", "Cora", "Kaylee", "Lydia", "Aubrey", "Arianna", "Eliana", "Peyton", "Melanie",
    "Gianna", "Isla", "Julia", "Valentina", "Naomi", "Mateo", "Daniel", "Michael", "Levi",
    "Sebastian", "Jack", "Alexander", "Carter", "Julian", "Grayson", "Leo", "Jayden", "Gabriel",
    "Isaac", "Lincoln", "Anthony", "Hudson", "Dylan", "Ezra", "Thomas", "Charles", "Christopher",
    "Jaxon", "Maverick", "Josiah", "Isaiah", "Andrew", "Joshua", "Colton", "Easton", "Nolan",
    "Cameron", "Connor", "Jeremiah", "Ezekiel", "Hunter", "Jordan", "Elif", "Robert",
    "Angel", "Dominic", "Greyson", "Adam", "Ian", "Axel", "Jose", "Everett", "Jonathan",
    "Kai", "Miles", "Ivan", "Roman", "Silas", "Parker", "Sawyer", "Declan", "Weston", "Micah",
    "Ayden", "Vincent", "Brandon", "Harrison", "Priya", "Ravi", "Ananya", "Arjun", "Mei",
    "Hiro", "Yuki", "Sakura", "Chen", "Li", "Fatima", "Omar", "Layla", "Yusuf", "Amara",
    "Kofi", "Zara", "Tariq", "Ingrid", "Lars", "Sven", "Freya", "Astrid", "Mateus", "Lucia",
    "Diego", "Sofia", "Carmen", "Pablo", "Elena", "Marco", "Giulia", "Luca", "Chiara",
)
CITIES = (
    "Portland", "Seattle", "Denver", "Austin", "Boston", "Chicago", "Atlanta", "Phoenix",
    "Dallas", "Houston", "Miami", "Nashville", "Detroit", "Baltimore", "Sacramento", "Tucson",
    "Albuquerque", "Omaha", "Raleigh", "Cleveland", "Pittsburgh", "Cincinnati", "Milwaukee",
    "Minneapolis", "Kansas City", "St. Louis", "Salt Lake City", "San Diego", "San Jose",
    "Oakland", "Boise", "Spokane", "Anchorage", "Honolulu", "Richmond", "Charlotte", "Tampa",
    "Orlando", "Savannah", "Madison", "Des Moines", "Toronto", "Vancouver", "Montreal",
    "Calgary", "London", "Dublin", "Edinburgh", "Berlin", "Munich", "Hamburg", "Vienna",
    "Zurich", "Amsterdam", "Rotterdam", "Brussels", "Paris", "Lyon", "Madrid", "Barcelona",
    "Lisbon", "Porto", "Rome", "Milan", "Naples", "Athens", "Prague", "Warsaw", "Krakow",
    "Budapest", "Copenhagen", "Stockholm", "Oslo", "Helsinki", "Tokyo", "Osaka", "Seoul",
    "Sydney", "Melbourne", "Auckland",
)
EMPLOYERS = (
    "Google", "Stripe", "Microsoft", "Amazon", "Netflix", "Spotify", "Shopify", "Airbnb",
    "Adobe", "Oracle", "Salesforce", "Intel", "Nvidia", "Siemens", "Bosch", "Philips",
    "Acme Analytics", "Bluefin Labs", "Northwind Traders", "Globex", "Initech", "Umbrella Health",
    "Redwood Bank", "Harbor Logistics", "Summit Dental", "Maple Insurance", "Crescent Media",
    "Orchid Pharma", "Granite Builders", "Pioneer Foods", "Atlas Robotics", "Beacon Energy",
    "Cobalt Systems", "Evergreen Schools", "Falcon Aerospace", "Horizon Travel",
    "Juniper Networks", "Lighthouse Labs", "Meridian Hotels", "Nimbus Cloud", "Quartz Design",
    "Sterling Law", "Tidewater Shipping", "Vertex Games", "Willow Bakery", "Zenith Motors",
    "Riverbend Hospital", "Copperleaf Studio", "Ironwood Capital", "Silverline Telecom",
)
JOBS = (
    "data analyst", "nurse", "teacher", "software engineer", "graphic designer", "accountant",
    "architect", "pharmacist", "electrician", "chef", "journalist", "product manager",
    "civil engineer", "physiotherapist", "lawyer", "dentist", "librarian", "photographer",
    "marketing manager", "paramedic", "barista", "UX researcher", "copywriter", "veterinarian",
    "project coordinator", "sales manager", "HR specialist", "financial advisor",
    "social worker", "translator", "mechanic", "pilot", "flight attendant", "carpenter",
    "data scientist", "office manager", "research assistant", "tour guide", "real estate agent",
    "interior designer", "web developer", "event planner",
)
PET_NAMES = (
    "Rex", "Luna", "Bella", "Max", "Charlie", "Milo", "Daisy", "Rocky", "Coco", "Buddy",
    "Pepper", "Oliver", "Simba", "Nala", "Loki", "Biscuit", "Mochi", "Ziggy", "Pickles",
    "Waffles", "Clover", "Pumpkin", "Maple", "Oreo", "Shadow", "Ginger", "Bruno", "Toby",
    "Rosie", "Finn", "Jasper", "Hazelnut", "Peanut", "Tofu", "Pesto", "Kiwi", "Olive",
    "Pretzel", "Muffin", "Noodle", "Bean", "Cinnamon", "Nugget", "Marble", "Tigger", "Socks",
    "Smokey", "Bandit", "Gizmo", "Sprout",
)
PET_KINDS = ("dog", "cat", "rabbit", "parrot", "hamster", "puppy", "kitten")
HOBBIES = (
    "pottery", "rock climbing", "knitting", "chess", "surfing", "woodworking", "birdwatching",
    "photography", "salsa dancing", "gardening", "painting", "baking", "archery", "fencing",
    "kayaking", "calligraphy", "yoga", "running", "cycling", "skateboarding", "origami",
    "bouldering", "sailing", "beekeeping", "embroidery", "stand-up comedy", "board games",
    "tennis", "scuba diving", "ice skating", "skiing", "snowboarding", "golf", "boxing",
    "pilates", "hiking", "fishing", "journaling", "sketching", "guitar",
)
LIKES = (
    "jazz", "sushi", "horror movies", "spicy food", "opera", "k-pop", "thai curry",
    "true crime podcasts", "jigsaw puzzles", "dark chocolate", "anime", "heavy metal",
    "country music", "craft beer", "reality TV", "poetry", "Italian food", "science fiction",
    "classical music", "musicals", "hip hop", "ramen", "stand-up specials", "documentaries",
    "fantasy novels", "cold brew", "mango smoothies", "vinyl records", "indie rock",
    "Korean BBQ", "tacos", "green tea", "crossword puzzles", "camping", "road trips",
    "black coffee", "pizza", "blues", "techno", "soap operas",
)
DIETS = ("vegetarian", "vegan", "pescatarian", "keto", "gluten-free", "paleo", "dairy-free")
VEHICLES = (
    "Toyota Corolla", "Honda Civic", "Ford F-150", "Tesla Model 3", "Subaru Outback",
    "Mazda CX-5", "Volkswagen Golf", "Audi A4", "BMW X3", "Kia Soul", "Hyundai Elantra",
    "Jeep Wrangler", "Chevrolet Bolt", "Nissan Leaf", "Volvo XC60", "Toyota Prius",
    "Honda CR-V", "Ford Mustang", "Mini Cooper", "Fiat 500", "Renault Clio", "Peugeot 208",
    "Skoda Octavia", "Mercedes C-Class", "Porsche Macan", "Rivian R1T", "Toyota RAV4",
    "Subaru Forester", "Hyundai Ioniq", "Kia Niro", "Lexus RX", "Acura MDX",
)
FIELDS = (
    "computer science", "biology", "economics", "psychology", "mechanical engineering",
    "history", "philosophy", "nursing", "architecture", "chemistry", "linguistics",
    "political science", "mathematics", "physics", "graphic design", "marine biology",
    "statistics", "sociology", "journalism", "music theory", "civil engineering", "geology",
    "anthropology", "finance", "accounting", "art history", "neuroscience", "data science",
    "environmental science", "public health",
)
CONDITIONS = (
    "asthma", "migraines", "diabetes", "insomnia", "eczema", "arthritis", "celiac disease",
    "hay fever", "back pain", "anemia", "tinnitus", "gout", "vertigo", "bronchitis",
    "acid reflux", "psoriasis", "sciatica", "tendonitis", "high blood pressure", "shingles",
)
NUMERIC_RANGES: dict[str, tuple[int, int]] = {
    "sleep": (4, 10), "weight": (48, 120), "salary": (35, 220), "commute": (5, 95),
}
