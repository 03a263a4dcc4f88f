// SPDX-License-Identifier: GPL-2.0
/* frob: an invented driver for winnow's tests */
#include <linux/module.h>
#include <linux/platform_device.h>

struct frob {
	void __iomem *base;
	int users;
};

static int frob_probe(struct platform_device *pdev)
{
	struct frob *f;

	f = devm_kzalloc(&pdev->dev, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	platform_set_drvdata(pdev, f);
	return 0;
}

static void frob_remove(struct platform_device *pdev)
{
	struct frob *f = platform_get_drvdata(pdev);

	f->users--;
}

MODULE_LICENSE("GPL");
