// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LaunchToken} from "./LaunchToken.sol";
import {LiquidityLocker} from "./LiquidityLocker.sol";
import {INonfungiblePositionManager, IUniswapV3Pool} from "./UniswapInterfaces.sol";

/// A named launchpad on Uniswap V3, in the style of today's Base launchers: one transaction creates
/// the token, its 1% WETH pool at the creator's starting price, and a single-sided position holding
/// the whole supply from that price up, minted to this launchpad's locker. Per launch the creator
/// either can take the position out of the locker later or never can.
contract V3Launchpad {
    event TokenCreated(
        address indexed token,
        address indexed pool,
        address indexed creator,
        string name,
        string symbol,
        uint256 totalSupply,
        uint24 fee,
        uint256 positionId,
        bool withdrawable
    );

    uint24 public constant FEE = 10000;
    int24 private constant TICK_SPACING = 200;
    /// The widest range on the 1% tier's tick spacing.
    int24 private constant MAX_USABLE_TICK = 887200;

    string public name;
    INonfungiblePositionManager public immutable positionManager;
    address public immutable weth;
    LiquidityLocker public immutable locker;

    constructor(string memory name_, INonfungiblePositionManager positionManager_, address weth_) {
        name = name_;
        positionManager = positionManager_;
        weth = weth_;
        locker = new LiquidityLocker(string.concat(name_, " Locker"), positionManager_);
    }

    /// `sqrtPriceX96` is the pool's starting price (token1 per token0); the position starts at the
    /// first usable tick on the token's side of it. Tokens the position could not take go to the creator.
    function launch(string memory tokenName, string memory tokenSymbol, uint256 totalSupply, uint160 sqrtPriceX96, bool withdrawable)
        external
        returns (address token, address pool, uint256 positionId)
    {
        LaunchToken launched = new LaunchToken(tokenName, tokenSymbol, totalSupply, address(this));
        token = address(launched);
        uint256 used;
        (pool, positionId, used) = _seedPool(launched, totalSupply, sqrtPriceX96);
        if (totalSupply > used) require(launched.transfer(msg.sender, totalSupply - used), "Launchpad: TRANSFER_FAILED");
        locker.lock(positionId, msg.sender, withdrawable);
        emit TokenCreated(token, pool, msg.sender, tokenName, tokenSymbol, totalSupply, FEE, positionId, withdrawable);
    }

    /// Creates the pool at the starting price and mints the single-sided position to the locker.
    function _seedPool(LaunchToken launched, uint256 supply, uint160 sqrtPriceX96)
        private
        returns (address pool, uint256 positionId, uint256 used)
    {
        address token = address(launched);
        bool tokenIs0 = token < weth;
        (address token0, address token1) = tokenIs0 ? (token, weth) : (weth, token);
        pool = positionManager.createAndInitializePoolIfNecessary(token0, token1, FEE, sqrtPriceX96);
        (, int24 tick,,,,,) = IUniswapV3Pool(pool).slot0();
        launched.approve(address(positionManager), supply);
        INonfungiblePositionManager.MintParams memory p = tokenIs0
            ? INonfungiblePositionManager.MintParams(
                token0, token1, FEE, _ceil(tick), MAX_USABLE_TICK, supply, 0, 0, 0, address(locker), block.timestamp
            )
            : INonfungiblePositionManager.MintParams(
                token0, token1, FEE, -MAX_USABLE_TICK, _floor(tick), 0, supply, 0, 0, address(locker), block.timestamp
            );
        (uint256 id,, uint256 amount0, uint256 amount1) = positionManager.mint(p);
        return (pool, id, tokenIs0 ? amount0 : amount1);
    }

    function _floor(int24 tick) private pure returns (int24) {
        int24 r = tick % TICK_SPACING;
        return r < 0 ? tick - r - TICK_SPACING : tick - r;
    }

    function _ceil(int24 tick) private pure returns (int24) {
        int24 f = _floor(tick);
        return f == tick ? f : f + TICK_SPACING;
    }
}
