"""Run (or resume) a synthetic campaign until done, to be SIGKILLed at a random moment.

Usage: python campaign_killee.py STORE_URL ROOT CAMPAIGN_ID

The test kills this process at random times and runs it again; every run continues
the campaign where the last one stopped.
"""

from __future__ import annotations

import sys
from pathlib import Path

from simwright.campaign import CampaignRunner, SyntheticEngine
from simwright.store import Store


def main() -> None:
    url, root, campaign = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    store = Store(url)
    try:
        outcome = CampaignRunner(store, SyntheticEngine(), root=root).run(campaign)
        print(outcome.status)
    finally:
        store.close()


if __name__ == "__main__":
    main()
